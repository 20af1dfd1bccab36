/**
 * Read-your-writes in this tab: each write's answer names the positions it reached, signed
 * (`x-shiplog-positions: <source>=<commit>/<prepare>.<signature>,…`), and every call sends the newest
 * of each source back, so the gateway's reads wait for them. The position cookies do the same for
 * any client, but two writes in flight to one service can be answered out of order, and a browser
 * keeps the cookie it received last: the older position. The gateway checks the signatures.
 */
export const POSITIONS_HEADER = 'x-shiplog-positions';

const newest = new Map<string, { commit: bigint; prepare: bigint; signed: string }>();

/** Keeps the positions an answer reports where they are newer than those held. */
export function notePositions(response: Response): void {
  const header = response.headers.get(POSITIONS_HEADER);
  if (!header) return;
  for (const part of header.split(',')) {
    const match = /^([a-z]+)=((\d{1,20})\/(\d{1,20})\.[^,=]+)$/.exec(part.trim());
    if (!match) continue;
    const [, source, signed, commit, prepare] = match as unknown as [string, string, string, string, string];
    const position = { commit: BigInt(commit), prepare: BigInt(prepare), signed };
    const held = newest.get(source);
    if (!held || position.commit > held.commit || (position.commit === held.commit && position.prepare > held.prepare))
      newest.set(source, position);
  }
}

/** The header a call sends: the newest position of each source this tab was told of, if any. */
export function positionHeaders(): Record<string, string> {
  if (newest.size === 0) return {};
  return { [POSITIONS_HEADER]: [...newest].map(([source, { signed }]) => `${source}=${signed}`).join(',') };
}
