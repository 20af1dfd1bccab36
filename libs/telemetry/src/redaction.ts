/**
 * Paths whose segment is itself a credential (a private calendar feed, a deploy webhook, a cron ping
 * URL): every route that holds one names that segment `:secret` in its declaration (a service's
 * router, the gateway's route table), and declares it here when its app is made. Wherever a path is
 * written down (access and error logs, spans) that segment is written `[redacted]`, in any case and
 * however many slashes stand between the segments: a variant of the path is redacted as the path is.
 */
const secretSources = new Set<string>();
/** Every declared path at once, each its own capture group (what stands before the secret). */
let secretPaths: RegExp | null = null;

/** Route templates (`/ping/:secret/start`); those that hold a `:secret` segment are redacted from now on. */
export function declareSecretPaths(templates: Iterable<string>): void {
  for (const template of templates) {
    const segments = template.split('/').filter(Boolean);
    const at = segments.indexOf(':secret');
    if (at === -1) continue;
    const before = segments
      .slice(0, at)
      .map((segment) => (segment.startsWith(':') ? '[^/?#]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const source = `(/+${before.map((segment) => `${segment}/+`).join('')})[^/?#]+`;
    secretSources.add(source);
  }
  // One pattern for all of them: a path is scanned once, however many routes hold a secret.
  secretPaths = secretSources.size > 0 ? new RegExp([...secretSources].join('|'), 'gi') : null;
}

export function loggedUrl(url: string): string {
  if (!secretPaths) return url;
  return url.replace(secretPaths, (...match: unknown[]) => {
    // The groups follow the match; the first that took part is what stood before the secret.
    const before = match.slice(1, secretSources.size + 1).find((group) => group !== undefined);
    return `${before}[redacted]`;
  });
}

/**
 * A path as a template, for span names when no route template is known: credentials redacted, and
 * every segment that is a value rather than a name (an id, a number, a token, a user's name under
 * `/users/`) as `:value`, so a span name never carries a user's data.
 */
export function pathTemplate(path: string): string {
  const segments = loggedUrl(path.split('?')[0]!).split('/');
  return segments
    .map((segment, i) =>
      segment === '[redacted]' ||
      /^[0-9a-f]{8}-[0-9a-f]{4}-|^\d+$|^[A-Za-z0-9_-]{20,}$/i.test(segment) ||
      (segments[i - 1] === 'users' && segment !== 'summary' && segment !== '')
        ? ':value'
        : segment,
    )
    .join('/');
}
