import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { formatPosition, type Position } from '@shiplog/events';
import { type Bus, busEventPosition, followPresence, isUuid, readEvent } from '@shiplog/messaging';
import { CONSISTENCY_HEADER, type Logger, type ServiceClients, type ServiceName } from '@shiplog/service-kit';
import { isSealed } from '@shiplog/vault';
import type { Request, Response } from 'express';
import { callerFor, type SessionUser } from '../session/session-cache.ts';
import type { Action } from './action.ts';

/** What a browser is told: which service's data changed, by which event, and where it stands in the bus. */
export interface LiveChange {
  /** The bus's sequence number: the SSE event id a reconnect resumes after. */
  seq: number;
  source: string;
  type: string;
}

/**
 * On every `/api` answer: the bus sequence up to which every change was already readable when the
 * request came (the last one the live feed announced). The app opens its stream after the lowest it
 * holds (`GET /api/events?after=`), so the stream tells it what changed since its data was read, and
 * nothing its data already shows.
 */
export const LIVE_SEQ_HEADER = 'x-shiplog-seq';

/**
 * A change; a mark (the stream is complete up to `seq`: the id a reconnect resumes after, when no
 * change of the user's came since); or a reset (what was missed cannot be told: reload everything).
 */
export type LiveMessage =
  | { kind: 'change'; change: LiveChange }
  | { kind: 'mark'; seq: number }
  | { kind: 'reset' }
  /** Another member came to a team project's page or left it: the page asks again who is there. */
  | { kind: 'presence'; projectId: string };
type Listener = (message: LiveMessage) => void;

/**
 * A reconnect further behind than this many bus messages (or behind what the bus still holds) is told
 * to reload everything instead: a replay reads every user's messages in the range to find one user's,
 * and a reload costs the browser a few reads. With the `events` limits (a few streams per user, a
 * rate per minute) it bounds what one account can make the gateway read.
 */
const MAX_REPLAY = 1_000;

/**
 * The live feed behind `GET /api/events`: one ordered JetStream consumer per gateway over
 * every published event, each handed to the open streams of the user it belongs to (a sealed event
 * names its user in the clear, an unsealed one in `data.userId`; nothing else of it leaves the
 * gateway). A change is announced only once the services' read models hold it: the feed asks each
 * read side to wait for the batch's positions (`GET /caught-up` with `x-shiplog-after`, the
 * read-your-writes wait), so the browser's refetch sees it. A stream that reconnects with
 * `Last-Event-ID` is first sent what it missed, read again from the bus, then joins the live feed.
 */
export class LiveFeed {
  readonly #bus: Bus;
  readonly #services: ServiceClients;
  readonly #readSides: readonly ServiceName[];
  readonly #logger: Logger;
  readonly #listeners = new Map<string, Set<Listener>>();
  /** The team workspaces of each user with a stream open, and who of them is in each. */
  readonly #workspacesOf = new Map<string, Set<string>>();
  readonly #membersOf = new Map<string, Set<string>>();
  readonly #stop = new AbortController();
  /** The last sequence announced: every later one reaches a listener registered now. */
  #announced = 0;
  #running: Promise<void> | undefined;

  /** Told of every published event with its user, as it is announced (the API token cache listens). */
  readonly #onEvent: ((type: string, userId: string) => void) | undefined;

  constructor(deps: {
    bus: Bus;
    services: ServiceClients;
    readSides: readonly ServiceName[];
    logger: Logger;
    onEvent?: (type: string, userId: string) => void;
  }) {
    this.#bus = deps.bus;
    this.#onEvent = deps.onEvent;
    this.#services = deps.services;
    this.#readSides = deps.readSides;
    this.#logger = deps.logger;
  }

  /** Starts at the bus's current end: what is already there was read before any browser connected. */
  async start(): Promise<void> {
    const { state } = await this.#bus.jsm.streams.info(this.#bus.stream);
    this.#announced = state.last_seq;
    const consumer = await this.#bus.js.consumers.get(this.#bus.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: state.last_seq + 1,
    });
    const messages = await consumer.consume();
    this.#stop.signal.addEventListener('abort', () => void messages.close());
    // Arrivals on and departures from a team project's page, told to its workspace's other members.
    const unfollow = followPresence(this.#bus, ({ projectId, workspaceId, userId }) => {
      for (const member of this.#membersOf.get(workspaceId) ?? [])
        if (member !== userId)
          for (const listener of this.#listeners.get(member) ?? []) listener({ kind: 'presence', projectId });
    });
    this.#stop.signal.addEventListener('abort', unfollow);
    this.#running = (async () => {
      const pending: JsMsg[] = [];
      let flushing: Promise<void> | undefined;
      const flush = async () => {
        while (pending.length > 0) await this.#announce(pending.splice(0, 500));
        flushing = undefined;
      };
      for await (const message of messages) {
        pending.push(message);
        flushing ??= flush();
      }
      await flushing;
    })().catch((error: unknown) => {
      if (!this.#stop.signal.aborted) this.#logger.error({ err: error }, 'live feed stopped');
    });
  }

  /**
   * Sends `listener` the user's changes from now on, after those since `lastSeq` when given (a
   * reconnect). Answers the function that ends it.
   */
  subscribe(userId: string, listener: Listener, lastSeq?: number, workspaces: readonly string[] = []): () => void {
    for (const workspaceId of workspaces) this.#join(userId, workspaceId);
    let live: Listener = listener;
    const upTo = this.#announced;
    if (lastSeq === undefined || lastSeq >= upTo) listener({ kind: 'mark', seq: upTo });
    else {
      // Changes announced from here on wait until the missed ones have been sent.
      const held: LiveMessage[] = [];
      live = (message) => held.push(message);
      void this.#replay(userId, lastSeq, upTo, listener)
        .then(() => listener({ kind: 'mark', seq: upTo }))
        .catch((error: unknown) => {
          this.#logger.warn({ err: error }, 'live feed could not replay; the browser reloads instead');
          listener({ kind: 'reset' });
        })
        .finally(() => {
          for (const message of held) listener(message);
          live = listener;
        });
    }
    const forward: Listener = (message) => live(message);
    const set = this.#listeners.get(userId) ?? new Set<Listener>();
    this.#listeners.set(userId, set);
    set.add(forward);
    return () => {
      set.delete(forward);
      if (set.size > 0) return;
      this.#listeners.delete(userId);
      for (const workspaceId of this.#workspacesOf.get(userId) ?? []) this.#leave(userId, workspaceId);
    };
  }

  #join(userId: string, workspaceId: string): void {
    const workspaces = this.#workspacesOf.get(userId) ?? new Set<string>();
    this.#workspacesOf.set(userId, workspaces.add(workspaceId));
    const members = this.#membersOf.get(workspaceId) ?? new Set<string>();
    this.#membersOf.set(workspaceId, members.add(userId));
  }

  #leave(userId: string, workspaceId: string): void {
    const workspaces = this.#workspacesOf.get(userId);
    workspaces?.delete(workspaceId);
    if (workspaces?.size === 0) this.#workspacesOf.delete(userId);
    const members = this.#membersOf.get(workspaceId);
    members?.delete(userId);
    if (members?.size === 0) this.#membersOf.delete(workspaceId);
  }

  /**
   * Who of the users with a stream open an event is for: its owner (a user, or a team workspace whose
   * members each get it); a membership change also goes to the member it names, whose streams join or
   * leave the workspace's changes at once (a removed member is told nothing more of it).
   */
  #audience(event: { type: string; data: unknown }, owner: string | null): Set<string> {
    const audience = new Set<string>();
    const data = event.data as { workspaceId?: string; memberId?: string; ownerId?: string };
    const workspaceId = typeof data.workspaceId === 'string' ? data.workspaceId : null;
    if (workspaceId && event.type.startsWith('Workspace')) {
      const member = data.memberId ?? data.ownerId;
      for (const userId of this.#membersOf.get(workspaceId) ?? []) audience.add(userId);
      if (member && this.#listeners.has(member)) {
        audience.add(member);
        if (event.type === 'WorkspaceMemberRemoved') this.#leave(member, workspaceId);
        else if (event.type === 'WorkspaceMemberJoined' || event.type === 'WorkspaceCreated')
          this.#join(member, workspaceId);
      }
      if (event.type === 'WorkspaceDeleted') for (const userId of audience) this.#leave(userId, workspaceId);
      return audience;
    }
    if (!owner) return audience;
    audience.add(owner);
    for (const userId of this.#membersOf.get(owner) ?? []) audience.add(userId);
    return audience;
  }

  /** The last sequence announced: every change up to it is in the read models. */
  get announced(): number {
    return this.#announced;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }

  async #announce(batch: JsMsg[]): Promise<void> {
    const changes: { userId: string; change: LiveChange; position: Position }[] = [];
    for (const message of batch) {
      const event = readEvent(message);
      if (!event) continue;
      const owner = ownerOf(event.data);
      if (owner) this.#onEvent?.(event.type, owner);
      const change = { seq: message.seq, source: event.source, type: event.type };
      for (const userId of this.#audience(event, owner))
        changes.push({ userId, change, position: busEventPosition(event) });
    }
    if (changes.some((c) => this.#listeners.has(c.userId))) await this.#caughtUp(changes);
    for (const { userId, change } of changes) {
      for (const listener of this.#listeners.get(userId) ?? []) listener({ kind: 'change', change });
    }
    this.#announced = batch.at(-1)!.seq;
  }

  /** Waits until every read side holds the batch (each waits for its own consumers, at most 2 s). */
  async #caughtUp(changes: { change: LiveChange; position: Position }[]): Promise<void> {
    const latest = new Map<string, Position>();
    for (const { change, position } of changes) latest.set(change.source, position);
    const after = [...latest].map(([source, position]) => `${source}=${formatPosition(position)}`).join(',');
    const caller = callerFor(undefined);
    await Promise.all(
      this.#readSides.map((service) =>
        this.#services
          .call(service, { method: 'GET', path: '/caught-up', caller, headers: { [CONSISTENCY_HEADER]: after } })
          .catch((error: unknown) => this.#logger.warn({ err: error, service }, 'live feed: read side unavailable')),
      ),
    );
  }

  /** The user's changes after `fromSeq` up to `toSeq`, read again from the bus. */
  async #replay(userId: string, fromSeq: number, toSeq: number, listener: Listener): Promise<void> {
    const { state } = await this.#bus.jsm.streams.info(this.#bus.stream);
    if (fromSeq + 1 < state.first_seq || toSeq - fromSeq > MAX_REPLAY) {
      listener({ kind: 'reset' });
      return;
    }
    const consumer = await this.#bus.js.consumers.get(this.#bus.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: fromSeq + 1,
    });
    const messages = await consumer.consume();
    try {
      for await (const message of messages) {
        if (message.seq > toSeq) break;
        const event = readEvent(message);
        const owner = event ? ownerOf(event.data) : null;
        // The user's own, and their workspaces' as they are now (a replay is at most a short gap).
        if (event && owner && (owner === userId || this.#workspacesOf.get(userId)?.has(owner)))
          listener({ kind: 'change', change: { seq: message.seq, source: event.source, type: event.type } });
        if (message.seq === toSeq || message.info.pending === 0) break;
      }
    } finally {
      await messages.close();
    }
  }
}

/**
 * Whose data an event is: a sealed event names its subject (a user, or the team workspace a project
 * belongs to); an unsealed one carries `userId`.
 */
function ownerOf(data: unknown): string | null {
  if (isSealed(data)) return data.subject;
  const userId = (data as { userId?: unknown } | null)?.userId;
  return isUuid(userId) ? userId : null;
}

/**
 * `GET /api/events`: the signed-in user's changes as server-sent events. Each change carries its bus
 * sequence as its id, so the browser's reconnect (`Last-Event-ID`) resumes without a gap; a new stream
 * starts after `?after=` (where the app's data was read), else at the current one. The stream ends when the session does (checked every `checkMs`), and
 * when the gateway stops.
 */
export function liveEvents(deps: {
  feed: LiveFeed;
  sessionAlive: (sid: string) => Promise<boolean>;
  /**
   * The team workspaces the user belongs to now (identity's answer, after the user's own writes: an
   * invite they just accepted), whose changes they are told too.
   */
  workspacesOf: (user: SessionUser, req: Request) => Promise<string[]>;
  checkMs?: number;
}): { action: Action; closeAll: () => void } {
  const open = new Set<Response>();
  const action: Action = async (req, res) => {
    const userId = req.session.user!.id;
    const workspaces = await deps.workspacesOf(req.session.user!, req);
    // A reconnect says where it stopped; a new stream, where the app's data was read (LIVE_SEQ_HEADER).
    const header = req.headers['last-event-id'] ?? req.query.after;
    const lastSeq = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // A proxy (nginx) must pass each event on at once.
      'x-accel-buffering': 'no',
    });
    // A dropped stream comes back after a second.
    res.write('retry: 1000\n\n');
    const unsubscribe = deps.feed.subscribe(
      userId,
      (message) => {
        if (message.kind === 'change') {
          const { seq, source, type } = message.change;
          res.write(`id: ${seq}\nevent: change\ndata: ${JSON.stringify({ source, type })}\n\n`);
        } else if (message.kind === 'mark') res.write(`id: ${message.seq}\n\n`);
        // No id: a presence is not resumed after a reconnect (the page asks again every 15 s anyway).
        else if (message.kind === 'presence')
          res.write(`event: presence\ndata: ${JSON.stringify({ projectId: message.projectId })}\n\n`);
        else res.write('event: reset\ndata: {}\n\n');
      },
      lastSeq,
      workspaces,
    );
    open.add(res);
    const timer = setInterval(() => {
      deps.sessionAlive(req.sessionID).then(
        (alive) => (alive ? res.write(': still here\n\n') : res.end()),
        () => undefined,
      );
    }, deps.checkMs ?? 25_000);
    res.once('close', () => {
      clearInterval(timer);
      unsubscribe();
      open.delete(res);
    });
  };
  return {
    action,
    closeAll: () => {
      for (const res of open) res.end();
    },
  };
}
