import { randomUUID } from 'node:crypto';

/**
 * One id scheme for every resource and every event: UUIDv7 (RFC 9562). Time-ordered, so ids sort by
 * creation and index well; generated without coordination, so a command can name its aggregate before
 * the append, and both event store adapters accept it as an event id.
 *
 * The 74 random bits come from `randomUUID`, which draws on Node's pooled entropy: a create makes
 * several ids, and `randomBytes` per id was a system call each.
 */
export function newId(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // A v4 UUID's last 17 characters (`xxx-Vxxx-xxxxxxxxxxxx`, V the variant) are random but for the
  // variant, which v7 shares; its version digit becomes 7 and its first 48 bits the time.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}

export { isId } from '@shiplog/schemas';
