/**
 * Paths whose segment is itself a credential: the private calendar feed's token and a project's
 * deploy webhook secret. Wherever a path is written down (access and error logs, spans) it is
 * written without them.
 */
const credentialSegments = [/(\/calendar\/)[^/?#]+/g, /(\/hooks\/deploy\/)[^/?#]+/g];

export function loggedUrl(url: string): string {
  return credentialSegments.reduce((out, pattern) => out.replace(pattern, '$1[redacted]'), url);
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
