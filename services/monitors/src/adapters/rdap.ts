import type { Outbound } from '@shiplog/outbound';

/**
 * A domain's registration as RDAP tells it (RFC 9083, the structured successor of WHOIS): the
 * `expiration` event of the domain object. `baseUrl` is an RDAP server or a bootstrap redirector
 * (rdap.org sends each name on to its registry's server); the redirect is followed through the SSRF
 * guard like any check.
 */
export async function lookupDomain(
  outbound: Outbound,
  baseUrl: string,
  domain: string,
  signal?: AbortSignal,
): Promise<{ found: false; status: number } | { found: true; status: number; expiresAt: Date | null }> {
  const url = new URL(`domain/${encodeURIComponent(domain)}`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const response = await outbound.get(url, { accept: 'application/rdap+json, application/json' }, signal);
  if (response.status !== 200) return { found: false, status: response.status };
  return { found: true, status: response.status, expiresAt: expirationOf(JSON.parse(response.body)) };
}

/** The `expiration` event's date of an RDAP domain object, or null when it has none (or none that reads). */
export function expirationOf(domain: unknown): Date | null {
  const events = (domain as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return null;
  const expiration = events.find(
    (e): e is { eventAction: string; eventDate: string } =>
      typeof e === 'object' && e !== null && e.eventAction === 'expiration' && typeof e.eventDate === 'string',
  );
  const at = expiration ? new Date(expiration.eventDate) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}
