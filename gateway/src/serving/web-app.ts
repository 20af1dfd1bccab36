import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { escapeHtml, type Logger } from '@shiplog/service-kit';
import express, { type RequestHandler } from 'express';
import { sendWithETag } from './responses.ts';
import { appContentSecurityPolicy, serviceWorkerPolicy } from './security-headers.ts';

/** The compressed copies the web build writes beside each asset (web/vite.config.ts), best first. */
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The built React app: hashed assets cached for a year and sent precompressed when the browser
 * accepts it (Brotli, else gzip: the first load is about a third of its raw 665 kB), other files for
 * an hour, and the history fallback, so deep links load the app shell, with the page's own
 * Content-Security-Policy (security-headers.ts).
 */
/** A page whose head the gateway writes for link previews (`/u/{username}`, public-profile.ts). */
export interface PageHeads {
  pattern: RegExp;
  /** Null: the plain page, with no preview (the head's reads were refused, over a limit say). */
  head: (params: Record<string, string>, req: express.Request, res: express.Response) => Promise<PageHead | null>;
}

export interface PageHead {
  status: number;
  title: string;
  meta: string;
  /** Its `Cache-Control`; with any but `no-store` the page carries an ETag and a repeat is a 304. */
  cacheControl: string;
}

export function webApp(dist: string, logger: Logger, heads: PageHeads[] = []): express.Router {
  const router = express.Router();
  // Read at start for its policy and the pages' heads, not looked for and then read: a build emptying
  // the folder between the two would stop the start.
  let page: string;
  try {
    page = readFileSync(join(dist, 'index.html'), 'utf8');
  } catch {
    logger.warn({ dist }, 'web app not built: run `pnpm build` (npm start does it)');
    router.use((_req, res) => {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet. Run `pnpm build`, or start with `npm start`.');
    });
    return router;
  }
  const assets = join(dist, 'assets');
  router.use('/assets', precompressed(assets));
  router.use('/assets', express.static(assets, { immutable: true, maxAge: '1y', fallthrough: false }));
  const policy = appContentSecurityPolicy(page);
  router.use(
    express.static(dist, {
      index: false,
      maxAge: '1h',
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('Content-Security-Policy', policy);
        // The service worker (web/public/sw.js): checked for a new version on every visit, and allowed
        // to fetch from this origin (its own policy; a worker's fetches answer to the script's).
        else if (path.endsWith(`${sep}sw.js`)) {
          res.setHeader('Cache-Control', 'no-cache');
          res.setHeader('Content-Security-Policy', serviceWorkerPolicy);
        } else if (path.endsWith('.webmanifest')) res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  // Not an Express path pattern: it would decode the path and answer a malformed one (`/%E0%A4%A`)
  // with Express's error page. Any path is the app's to show, or to say it is not found.
  router.use(async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', policy);
    for (const { pattern, head } of heads) {
      const match = pattern.exec(req.path);
      if (!match) continue;
      try {
        const written = await head(decodedGroups(match), req, res);
        if (!written) {
          res.removeHeader('Retry-After');
          res.sendFile(join(dist, 'index.html'));
          return;
        }
        const { status, title, meta, cacheControl } = written;
        // Function replacers: a replacement string would expand `$&`, `` $` `` and `$'` from the text.
        const html = page
          .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
          .replace(/<meta name="description"[^>]*>/, '')
          .replace('</head>', () => `${meta}</head>`);
        res.status(status).type('html').setHeader('Cache-Control', cacheControl);
        sendWithETag(req, res, html);
      } catch (error) {
        // The page loads its data itself and says what went wrong: only the preview is lost.
        logger.warn({ err: error, path: req.path }, 'could not write the page head');
        res.sendFile(join(dist, 'index.html'));
      }
      return;
    }
    res.sendFile(join(dist, 'index.html'));
  });
  return router;
}

/**
 * Sends an asset's compressed copy in the best encoding the request accepts, or passes it on. Only
 * files found at start-up are served this way: the assets are immutable, and a path from the request
 * is never joined onto the disk unless it is one of them.
 */
function precompressed(dir: string): RequestHandler {
  const variants = new Map<string, Set<string>>();
  let files = new Set<string>();
  try {
    files = new Set(readdirSync(dir));
  } catch {}
  for (const file of files) {
    for (const { name, suffix } of encodings) {
      const original = file.slice(0, -suffix.length);
      if (file.endsWith(suffix) && files.has(original)) {
        const key = `/${original}`;
        variants.set(key, (variants.get(key) ?? new Set()).add(name));
      }
    }
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const present = variants.get(req.path);
    if (!present) return next();
    // Caches must keep the variants apart, the uncompressed one included.
    res.vary('Accept-Encoding');
    const chosen = encodings.find(({ name }) => present.has(name) && req.acceptsEncodings(name) === name);
    if (!chosen) return next();
    res.type(extname(req.path));
    res.setHeader('Content-Encoding', chosen.name);
    res.sendFile(join(dir, `${req.path.slice(1)}${chosen.suffix}`), { immutable: true, maxAge: '1y' }, (error) => {
      if (error && !res.headersSent) {
        res.removeHeader('Content-Encoding');
        next();
      }
    });
  };
}

/** A match's named groups that matched, decoded (a bad encoding is left as it came). */
function decodedGroups(match: RegExpExecArray): Record<string, string> {
  return Object.fromEntries(
    Object.entries(match.groups ?? {}).flatMap(([name, value]) => {
      if (value === undefined) return [];
      try {
        return [[name, decodeURIComponent(value)]];
      } catch {
        return [[name, value]];
      }
    }),
  );
}
