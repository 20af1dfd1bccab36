import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * Headers every answer carries: no MIME sniffing, no framing by other sites (clickjacking), no full
 * URLs in the Referer to other origins, a browsing context of its own. The policy here is the one for
 * anything that is not the web app's page (JSON, assets): nothing may load from it. HTTPS-only
 * (HSTS) when the public address is HTTPS.
 */
export function securityHeaders(options: { https: boolean }): (res: ServerResponse) => void {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ];
  if (options.https) headers.push(['Strict-Transport-Security', 'max-age=31536000']);
  return (res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

/**
 * The web app page's Content-Security-Policy: scripts only from this origin, plus the page's own
 * inline scripts by hash (the theme is applied before first paint); styles from this origin and
 * inline (Radix's scroll lock inserts a style element); images from this origin and as data: URLs
 * only, so no text on a page (a chat reply, say) can make the browser load a remote address; calls
 * only to this origin; no plugins, no <base>, no framing.
 */
export function appContentSecurityPolicy(indexHtml: string): string {
  const hashes = [...indexHtml.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.map((h) => ` ${h}`).join('')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The service worker's policy: it fetches from this origin (pages, assets, the API) and loads nothing else. */
export const serviceWorkerPolicy = "default-src 'none'; connect-src 'self'; img-src 'self'";
