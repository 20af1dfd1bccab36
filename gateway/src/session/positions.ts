import type { IncomingMessage, ServerResponse } from 'node:http';
import { parsePosition } from '@shiplog/events';
import { serviceDirectory } from '@shiplog/service-kit';
import cookie from 'cookie';
import { SignedValues } from './signed-values.ts';

/** One cookie per source, so two writes in flight to different services never overwrite each other. */
export const POSITION_COOKIE_PREFIX = 'shiplog.after.';
/**
 * The same signed positions as a header, `<source>=<signed>,…`: on a write's answer, the positions it
 * reached; on a request, the newest the web app holds. Two writes in flight to one service can be
 * answered out of order, and a browser keeps the cookie it received last, the older position; the
 * app keeps the newest of each source it was told and sends it with every call.
 */
export const POSITIONS_HEADER = 'x-shiplog-positions';

const sources = new Set<string>(Object.keys(serviceDirectory));
const attributes = { httpOnly: true, sameSite: 'lax', path: '/api' } as const;

/**
 * Read-your-writes positions travel with the client, the way Cosmos DB's session tokens do: a write's
 * answer sets `shiplog.after.<source>` to the position it reached, and every later call sends it back,
 * whichever gateway replica takes it. The session in Redis then holds only who the user is, which
 * changes at sign-in and sign-out alone, so reads can keep it in memory (see `SessionReader`).
 *
 * The cookies are signed with the session secret: a forged position far ahead would make the user's
 * reads wait out the services' timeout. An old one is harmless (it is already caught up).
 */
export class PositionCookies {
  readonly #signed: SignedValues;

  constructor(secret: string) {
    this.#signed = new SignedValues(secret);
  }

  /**
   * The services' consistency header (`<source>=<position>,…`) from a request's cookies and its
   * `x-shiplog-positions` header (a source named by both: the services wait for the later).
   */
  after(cookies: Record<string, string | undefined>, sent?: string | string[]): string | undefined {
    const after: string[] = [];
    for (const name in cookies) {
      if (!name.startsWith(POSITION_COOKIE_PREFIX)) continue;
      const source = name.slice(POSITION_COOKIE_PREFIX.length);
      const position = sources.has(source) ? this.#open(cookies[name]) : undefined;
      if (position) after.push(`${source}=${position}`);
    }
    if (typeof sent === 'string')
      // At most one entry a source: a longer header is not the app's, and is not read past that.
      for (const part of sent.split(',', sources.size)) {
        const [source, signed, extra] = part.trim().split('=');
        const position = source && sources.has(source) && extra === undefined ? this.#open(signed) : undefined;
        if (position) after.push(`${source}=${position}`);
      }
    return after.length > 0 ? after.join(',') : undefined;
  }

  /**
   * What goes back to the client for the positions a write reported (`x-shiplog-position:
   * <source>=<position>,…`), each signed once: a `Set-Cookie` value per source, and the
   * `x-shiplog-positions` header naming them all (undefined when the write reported none).
   */
  answer(reported: string | string[] | undefined, secure: boolean): { setCookies: string[]; header?: string } {
    const signed = this.#signedPositions(reported);
    if (signed.length === 0) return { setCookies: [] };
    return {
      setCookies: signed.map(([source, value]) =>
        cookie.serialize(`${POSITION_COOKIE_PREFIX}${source}`, value, { ...attributes, secure }),
      ),
      header: signed.map(([source, value]) => `${source}=${value}`).join(','),
    };
  }

  /** Each source and signed position a write reported; a write can reach several (an import: projects and reminders). */
  #signedPositions(reported: string | string[] | undefined): [string, string][] {
    if (typeof reported !== 'string') return [];
    return reported.split(',').flatMap((part): [string, string][] => {
      const [source, position, extra] = part.trim().split('=');
      if (!source || !sources.has(source) || !position || extra !== undefined || !parsePosition(position)) return [];
      return [[source, this.#signed.sign(position)]];
    });
  }

  /** `Set-Cookie` values that remove every position cookie the request carried (sign-out). */
  clearCookies(cookies: Record<string, string | undefined>): string[] {
    return Object.keys(cookies)
      .filter((name) => name.startsWith(POSITION_COOKIE_PREFIX))
      .map((name) => cookie.serialize(name, '', { ...attributes, expires: new Date(0) }));
  }

  #open(signed: string | undefined): string | undefined {
    const position = signed ? this.#signed.open(signed) : undefined;
    return position && parsePosition(position) ? position : undefined;
  }
}

/**
 * The positions of one request handled by the Express pipeline: those the client sent, and those
 * reached by writes earlier in the same request (sign-in reads the user it just wrote).
 */
export class RequestPositions {
  readonly #cookies: PositionCookies;
  readonly #reachedNow = new WeakMap<IncomingMessage, string>();

  constructor(cookies: PositionCookies) {
    this.#cookies = cookies;
  }

  /** The consistency header for the services this request calls. */
  of(req: IncomingMessage): string | undefined {
    const sent = this.#cookies.after(cookie.parse(req.headers.cookie ?? ''), req.headers[POSITIONS_HEADER]);
    const now = this.#reachedNow.get(req);
    return now && sent ? `${sent},${now}` : (now ?? sent);
  }

  /** A write's position goes back to the client, which sends it with every later call. */
  remember(req: IncomingMessage & { secure: boolean }, res: ServerResponse, reported: string | string[] | undefined) {
    const { setCookies, header } = this.#cookies.answer(reported, req.secure);
    if (!header) return;
    for (const setCookie of setCookies) res.appendHeader('Set-Cookie', setCookie);
    const prior = res.getHeader(POSITIONS_HEADER);
    res.setHeader(POSITIONS_HEADER, prior ? `${prior},${header}` : header);
    const now = this.#reachedNow.get(req);
    this.#reachedNow.set(req, now ? `${now},${reported}` : (reported as string));
  }

  /** Positions the request's reads wait for besides its cookies' (an API token's own writes). */
  include(req: IncomingMessage, after: string) {
    const now = this.#reachedNow.get(req);
    this.#reachedNow.set(req, now ? `${now},${after}` : after);
  }

  /** Sign-out: the client forgets every position it held. */
  forget(req: IncomingMessage, res: ServerResponse) {
    for (const setCookie of this.#cookies.clearCookies(cookie.parse(req.headers.cookie ?? ''))) {
      res.appendHeader('Set-Cookie', setCookie);
    }
  }
}
