import { AppError } from '@shiplog/errors';
import { comparePositions, formatPosition, type Position, parsePosition } from '@shiplog/events';
import type { ConsumerView } from '@shiplog/messaging';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from './logger.ts';
import { CALL_TIMEOUT_MS } from './service-clients.ts';

/** Read-your-writes: the gateway sends the positions of the user's own last writes, per source. */
export const CONSISTENCY_HEADER = 'x-shiplog-after';
/** Services answer a write with the position it reached: `<source>=<commit>/<prepare>`. */
export const POSITION_HEADER = 'x-shiplog-position';

export function reportPosition(res: Response, source: string, position: Position): void {
  reportPositions(res, new Map([[source, position]]));
}

/** A write that reached several sources (one through another service's API): each source's position. */
export function reportPositions(res: Response, positions: Map<string, Position>): void {
  if (positions.size === 0) return;
  res.setHeader(
    POSITION_HEADER,
    [...positions].map(([source, position]) => `${source}=${formatPosition(position)}`).join(','),
  );
}

/** `<source>=<position>,…`; a source named twice (the user's own write and a shared one) keeps the later. */
export function parsePositions(header: string | undefined): Map<string, Position> {
  const out = new Map<string, Position>();
  for (const part of (header ?? '').split(',')) {
    const [source, text] = part.trim().split('=');
    const position = text ? parsePosition(text) : null;
    if (!source || !position) continue;
    const held = out.get(source);
    if (!held || comparePositions(position, held) > 0) out.set(source, position);
  }
  return out;
}

/** The caller's positions as the request brought them: passed on when this service reads another's data for the caller. */
export function afterOf(req: Request): string | undefined {
  const header = req.headers[CONSISTENCY_HEADER];
  return typeof header === 'string' && header ? header : undefined;
}

/** How long a read waits for the caller's writes before it answers with older data. */
const READ_WAIT_MS = 2000;
/**
 * How much of the gateway's time for a call (`CALL_TIMEOUT_MS`) a write leaves itself after waiting for
 * them: it waits longer than a read, since what it would decide from older data (that the caller's own
 * new project is not there) is wrong, not just stale; but it answers within the gateway's time, so the
 * caller hears what happened (done, or "try again"), never a timeout for a write that then goes on.
 */
const WRITE_MARGIN_MS = 3000;

const catchUps = new WeakMap<Request, (timeoutMs: number) => Promise<boolean>>();

/**
 * Waits until this service's consumers have handled the caller's own earlier writes. Reads do it
 * before their handler; a write that decides from a projection of another service's events (is this
 * the caller's project?) calls it itself. False when they had not within the wait: what the
 * projection lacks may be the caller's, so a write answers "try again" (`notCaughtUp`) rather than
 * "not found".
 */
export async function catchUp(req: Request): Promise<boolean> {
  return (await catchUps.get(req)?.(CALL_TIMEOUT_MS - WRITE_MARGIN_MS)) ?? true;
}

/** A write that found nothing while the caller's own earlier writes were still being applied here. */
export const notCaughtUp = () =>
  new AppError(503, 'CATCHING_UP', 'Your last change is still being applied: try again in a moment');

export type Behind = { consumer: ConsumerView; source: string; position: Position }[];

/**
 * The consumers still short of the caller's positions (the `x-shiplog-after` header), or undefined in
 * the usual case: this process has already seen every consumer past the caller's writes.
 */
export function positionsBehind(consumers: ConsumerView[], header: string | string[] | undefined): Behind | undefined {
  if (typeof header !== 'string' || !header || consumers.length === 0) return undefined;
  const wanted = parsePositions(header);
  const behind = consumers.flatMap((consumer) =>
    [...wanted]
      .filter(([source, position]) => consumer.sources.includes(source) && !consumer.hasReached(source, position))
      .map(([source, position]) => ({ consumer, source, position })),
  );
  return behind.length > 0 ? behind : undefined;
}

/** Whether every consumer reached the caller's positions within `timeoutMs`. */
export async function waitFor(behind: Behind, logger: Logger, timeoutMs = READ_WAIT_MS): Promise<boolean> {
  const reached = await Promise.all(
    behind.map(async ({ consumer, source, position }) => {
      const caughtUp = await consumer.waitForPosition(source, position, timeoutMs);
      if (!caughtUp)
        logger.warn({ consumer: consumer.name, source }, 'read-your-writes wait timed out; answering with older data');
      return caughtUp;
    }),
  );
  return reached.every(Boolean);
}

export function consistency(consumers: ConsumerView[], logger: Logger): RequestHandler {
  return async (req, _res, next) => {
    const behind = positionsBehind(consumers, req.headers[CONSISTENCY_HEADER]);
    if (!behind) return next();
    const wait = (timeoutMs: number) => waitFor(behind, logger, timeoutMs);
    catchUps.set(req, wait);
    // Reads wait here; a write decides from the event store, which is never behind.
    if (req.method === 'GET' || req.method === 'HEAD') await wait(READ_WAIT_MS);
    next();
  };
}
