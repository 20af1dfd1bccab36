import type { IncomingMessage } from 'node:http';
import { NotFoundError } from '@shiplog/errors';
import type { PublicProfile, PublicStatus } from '@shiplog/schemas';
import { escapeHtml } from '@shiplog/service-kit';
import { sendWithETag } from '../serving/responses.ts';
import type { Action } from './action.ts';

/** Shields' colours, by name. */
const colours = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellow: '#dfb317',
  red: '#e05d44',
  blue: '#007ec6',
  lightgrey: '#9f9f9f',
} as const;
type Colour = keyof typeof colours;

/** Verdana 11px's advance, roughly, per character: narrow, wide and the rest (shields measures exactly). */
function textWidth(text: string): number {
  let width = 0;
  for (const c of text)
    width += /[iljtfI.,:;!|' ]/.test(c) ? 3.7 : /[mwMW%@]/.test(c) ? 10 : /[A-Z0-9]/.test(c) ? 7.5 : 6.5;
  return Math.ceil(width);
}

/**
 * A badge in shields.io's flat style: the label on grey, the value on its colour, both as text that a
 * screen reader reads (the SVG's title and aria-label). Everything in it is escaped.
 */
export function badgeSvg(label: string, value: string, colour: Colour): string {
  const left = textWidth(label) + 10;
  const right = textWidth(value) + 10;
  const width = left + right;
  const title = escapeHtml(`${label}: ${value}`);
  const text = (x: number, words: string) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${escapeHtml(words)}</text><text x="${x}" y="14">${escapeHtml(words)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}"><title>${title}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colours[colour]}"/><rect width="${width}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">${text(left / 2, label)}${text(left + right / 2, value)}</g></svg>`;
}

/** `3 days ago`, `5 hours ago`, `just now`: how long since a deploy. */
function since(at: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(at)) / 60_000);
  const [amount, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 1440
        ? [Math.floor(minutes / 60), 'hour']
        : [Math.floor(minutes / 1440), 'day'];
  if (amount < 1) return 'just now';
  return `${amount} ${unit}${amount === 1 ? '' : 's'} ago`;
}

type Badge = (project: PublicProfile['projects'][number], status: PublicStatus | null) => [string, string, Colour];

/**
 * The badges a public project offers for its README, by file name. A Map, not an object: a name from
 * the path (`constructor`, `__proto__`) must find nothing rather than what every object inherits.
 */
const badges = new Map<string, Badge>(
  Object.entries({
    /** Its URLs' checks over 30 days, every http monitor counted alike. */
    'uptime.svg': (project, status) => {
      const shares = (status?.monitors ?? [])
        .filter((m) => m.projectId === project.id && m.kind === 'http' && m.uptime.month !== null)
        .map((m) => m.uptime.month!);
      if (shares.length === 0) return ['uptime', 'no checks', 'lightgrey'];
      const share = shares.reduce((a, b) => a + b, 0) / shares.length;
      const value = `${(Math.floor(share * 10_000) / 100).toFixed(2)}%`;
      return [
        'uptime',
        value,
        share >= 0.999 ? 'brightgreen' : share >= 0.99 ? 'green' : share >= 0.95 ? 'yellow' : 'red',
      ];
    },
    'last-deploy.svg': (project) =>
      project.latestDeployment
        ? ['last deploy', since(project.latestDeployment.at, Date.now()), 'blue']
        : ['last deploy', 'never', 'lightgrey'],
    'version.svg': (project) =>
      project.latestVersion
        ? ['version', `v${project.latestVersion.version.replace(/^v/, '')}`, 'blue']
        : ['version', 'none', 'lightgrey'],
  } satisfies Record<string, Badge>),
);

/**
 * README badges of a public project (`/api/badges/{username}/{projectId}/uptime.svg`,
 * `last-deploy.svg`, `version.svg`), from the same held reads as its public pages: a private profile
 * or project answers a grey "private" badge, another badge name a 404.
 */
export function badgeAction(pages: {
  profile: (req: IncomingMessage, username: string) => Promise<{ page: PublicProfile | null; fresh: boolean }>;
  status: (req: IncomingMessage, username: string) => Promise<{ page: PublicStatus | null; fresh: boolean }>;
  cacheControl: (fresh: boolean) => string;
}): Action {
  return async (req, res, params) => {
    const name = params.badge ?? '';
    const badge = badges.get(name);
    if (!badge) throw new NotFoundError('Badge not found', 'BADGE_NOT_FOUND');
    const { page: profile, fresh } = await pages.profile(req, params.username ?? '');
    const project = profile?.projects.find((p) => p.id === params.projectId);
    // A README keeps showing an image: a grey "private" one for a project that is not public (or not
    // there: the two are not told apart), never an error that shows as a broken image.
    const [label, value, colour]: [string, string, Colour] =
      !profile || !project
        ? [name.replace(/\.svg$/, '').replace('-', ' '), 'private', 'lightgrey']
        : badge(project, name === 'uptime.svg' ? (await pages.status(req, profile.username)).page : null);
    res.setHeader('Cache-Control', pages.cacheControl(fresh));
    res.type('image/svg+xml');
    sendWithETag(req, res, badgeSvg(label, value, colour));
  };
}
