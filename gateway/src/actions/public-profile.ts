import type { IncomingMessage } from 'node:http';
import { NotFoundError } from '@shiplog/errors';
import {
  checklistKeys,
  type MonitorsStatus,
  type PublicChangelog,
  type PublicProfile,
  type PublicProjectFields,
  type PublicRelease,
  type PublicStatus,
  type PublicTeamStatus,
} from '@shiplog/schemas';
import { escapeHtml, type ServiceClients, type ServiceName } from '@shiplog/service-kit';
import type { Request } from 'express';
import { sendWithETag } from '../serving/responses.ts';
import type { PageHead } from '../serving/web-app.ts';
import type { RequestPositions } from '../session/positions.ts';
import { callerFor } from '../session/session-cache.ts';
import type { Action } from './action.ts';
import { badgeAction } from './badges.ts';
import type { PublicHolds } from './public-holds.ts';

interface ProfileFields {
  userId: string;
  username: string;
  displayName: string;
  bio: string | null;
  github: string | null;
  twitter: string | null;
  linkedin: string | null;
  website: string | null;
}

interface Shipped {
  projectId: string;
  kind: 'deployment' | 'release';
  version: string | null;
  environment: string | null;
  at: string;
}

/**
 * Public profile pages: `/u/{username}` shows, signed out too, a public profile's display
 * name, bio and links, and its public projects with their status, progress, latest deployment and
 * version. Each service gives only its public part (identity refuses a private profile), and nothing
 * else of the user leaves: no cost, reminders, notes or email. `GET /api/public/users/{username}` is
 * its data; `pageHead` is what the gateway writes into the page's head for link previews.
 */
export function publicProfiles(deps: {
  services: ServiceClients;
  positions: RequestPositions;
  holds: PublicHolds;
  /** This server's address as readers reach it (APP_URL's origin, else the request's). */
  origin: (req: Request) => string;
}) {
  const { services, positions, holds, origin } = deps;
  const caller = callerFor(undefined);

  /**
   * As anyone reads it, once the read models hold its owner's last change (`after`); its owner, just
   * after a change, sees the change (their positions).
   */
  const read = <T>(req: IncomingMessage, after: string | undefined, service: ServiceName, path: string) => {
    const own = positions.of(req);
    return services.readOrNull<T>(service, path, { caller, after: own && after ? `${own},${after}` : (own ?? after) });
  };

  /**
   * A page held for readers who have written nothing (no positions): a burst of views of one page
   * costs its few service calls once, not once per view. A reader who has just written (the owner,
   * after an edit) always reads anew, and what they read is held. What its owner changes is dropped
   * from every replica's holds (public-holds.ts).
   */
  function held<T>(
    load: (
      req: IncomingMessage,
      username: string,
      after: string | undefined,
    ) => Promise<{ page: T | null; userId: string | null }>,
  ) {
    const find = holds.kind(load);
    return async (req: IncomingMessage, username: string): Promise<{ page: T | null; fresh: boolean }> => {
      const fresh = positions.of(req) !== undefined;
      return { page: await find(req, username, fresh), fresh };
    };
  }

  /** What both pages are made of: the public profile's fields and its public projects (null: no public profile). */
  const findParts = held(async (req, username, after) => {
    const page = await loadParts(req, username, after);
    return { page, userId: page?.profile.userId ?? null };
  });
  /** The public profile, or null for a private or missing one, and whether the reader just wrote. */
  const find = held(load);
  /** The status page: the public profile's public projects that have monitors, and those monitors. */
  const findStatus = held(loadStatus);
  /** Every public project's changelog: its releases, newest first. */
  const findChangelogs = held(loadChangelogs);

  async function loadParts(
    req: IncomingMessage,
    username: string,
    after: string | undefined,
  ): Promise<{ profile: ProfileFields; projects: PublicProjectFields[] } | null> {
    const profile = await read<ProfileFields>(
      req,
      after,
      'identity',
      `/public/profiles/${encodeURIComponent(username)}`,
    );
    if (!profile) return null;
    const projects = await read<PublicProjectFields[]>(
      req,
      after,
      'projects',
      `/public/users/${profile.userId}/projects`,
    );
    return { profile, projects: projects ?? [] };
  }

  async function loadStatus(
    req: IncomingMessage,
    username: string,
    after: string | undefined,
  ): Promise<{ page: PublicStatus | null; userId: string | null }> {
    const parts = (await findParts(req, username)).page;
    if (!parts) return { page: null, userId: null };
    const { profile, projects } = parts;
    return {
      userId: profile.userId,
      page: {
        username: profile.username,
        displayName: profile.displayName,
        ...(await monitorsOf(req, after, projects, `/public/users/${profile.userId}/status`)),
      },
    };
  }

  /**
   * A status page's part: the monitors of `projects` (monitors' `path`, which checks they are its
   * owner's), the incidents of 90 days, and the projects that have monitors.
   */
  async function monitorsOf(
    req: IncomingMessage,
    after: string | undefined,
    projects: PublicProjectFields[],
    path: string,
  ): Promise<MonitorsStatus & { projects: { id: string; name: string }[]; at: string }> {
    const status =
      projects.length > 0
        ? await read<MonitorsStatus>(req, after, 'monitors', `${path}?projects=${projects.map((p) => p.id).join(',')}`)
        : null;
    const monitors = status?.monitors ?? [];
    return {
      projects: projects
        .filter((p) => monitors.some((m) => m.projectId === p.id))
        .map(({ id, name }) => ({ id, name })),
      monitors,
      incidents: status?.incidents ?? [],
      at: new Date().toISOString(),
    };
  }

  async function loadChangelogs(
    req: IncomingMessage,
    username: string,
    after: string | undefined,
  ): Promise<{ page: Map<string, PublicChangelog> | null; userId: string | null }> {
    const parts = (await findParts(req, username)).page;
    if (!parts) return { page: null, userId: null };
    const { profile, projects } = parts;
    const releases =
      (await read<(PublicRelease & { projectId: string })[]>(
        req,
        after,
        'activity',
        `/public/users/${profile.userId}/releases`,
      )) ?? [];
    // A public project's only: a private one has no changelog, whatever it released.
    const page = new Map(
      projects.map((project) => [
        project.id,
        {
          username: profile.username,
          displayName: profile.displayName,
          project: { id: project.id, name: project.name, description: project.description },
          releases: releases
            .filter((release) => release.projectId === project.id)
            .map(({ version, notes, changes, at }) => ({ version, notes, changes, at })),
        } satisfies PublicChangelog,
      ]),
    );
    return { page, userId: profile.userId };
  }

  /** The public project's changelog, or a 404 for a private project or profile. */
  async function changelogOf(req: IncomingMessage, params: Record<string, string | undefined>) {
    const { page, fresh } = await findChangelogs(req, params.username ?? '');
    const changelog = page?.get(params.projectId ?? '');
    if (!changelog) throw new NotFoundError('Changelog not found', 'CHANGELOG_NOT_FOUND');
    return { changelog, fresh };
  }

  const changelog: Action = async (req, res, params) => {
    const { changelog: page, fresh } = await changelogOf(req, params);
    res.setHeader('Cache-Control', cacheControl(fresh));
    res.type('json');
    sendWithETag(req, res, JSON.stringify(page));
  };

  /** The changelog as an Atom feed (RFC 4287): one entry per release, its notes and changes as its content. */
  const changelogFeed: Action = async (req, res, params) => {
    const { changelog: page, fresh } = await changelogOf(req, params);
    res.setHeader('Cache-Control', cacheControl(fresh));
    res.type('application/atom+xml; charset=utf-8');
    sendWithETag(req, res, atomFeed(page, origin(req)));
  };

  async function load(
    req: IncomingMessage,
    username: string,
    after: string | undefined,
  ): Promise<{ page: PublicProfile | null; userId: string | null }> {
    const parts = (await findParts(req, username)).page;
    if (!parts) return { page: null, userId: null };
    const { profile, projects } = parts;
    const { userId, displayName, bio, github, twitter, linkedin, website } = profile;
    const shipped = await read<Shipped[]>(req, after, 'activity', `/public/users/${userId}/shipped`);
    const latest = (projectId: string, kind: Shipped['kind']) =>
      shipped?.find((s) => s.projectId === projectId && s.kind === kind);
    const page: PublicProfile = {
      username: profile.username,
      displayName,
      bio,
      links: { github, twitter, linkedin, website },
      projects: projects.map((project) => {
        const deployment = latest(project.id, 'deployment');
        const release = latest(project.id, 'release');
        return {
          id: project.id,
          name: project.name,
          description: project.description,
          status: project.status,
          progress: checklistKeys.filter((key) => project.checklist[key]).length,
          latestDeployment: deployment
            ? { environment: deployment.environment, version: deployment.version, at: deployment.at }
            : null,
          latestVersion: release?.version ? { version: release.version, at: release.at } : null,
          createdAt: project.createdAt,
        };
      }),
    };
    return { page, userId };
  }

  const publicProfile: Action = async (req, res, params) => {
    const { page: profile, fresh } = await find(req, params.username ?? '');
    res.setHeader('Cache-Control', cacheControl(fresh));
    if (!profile) throw new NotFoundError('Profile not found', 'PROFILE_NOT_FOUND');
    res.type('json');
    sendWithETag(req, res, JSON.stringify(profile));
  };

  const publicStatus: Action = async (req, res, params) => {
    const { page: status, fresh } = await findStatus(req, params.username ?? '');
    res.setHeader('Cache-Control', cacheControl(fresh));
    if (!status) throw new NotFoundError('Profile not found', 'PROFILE_NOT_FOUND');
    res.type('json');
    sendWithETag(req, res, JSON.stringify(status));
  };

  /**
   * The head of `/u/{username}`'s page (or of its status page, `/u/{username}/status`): its title, and
   * Open Graph and Twitter tags, so a shared link previews with the name, the bio and what they ship;
   * `noindex` and a 404 for no public profile.
   */
  async function pageHead(
    req: Request,
    username: string,
    origin: string,
    of: 'profile' | 'status' = 'profile',
  ): Promise<PageHead> {
    const { page: profile, fresh } = await find(req, username);
    if (!profile) return notFoundHead('Profile not found · Shiplog', fresh);
    const count = profile.projects.length;
    const [title, description, url] =
      of === 'status'
        ? [
            `Status of ${profile.displayName}'s projects · Shiplog`,
            `Uptime and incidents of what ${profile.displayName} ships, checked by Shiplog.`,
            `${origin}/u/${encodeURIComponent(profile.username)}/status`,
          ]
        : [
            `${profile.displayName} (@${profile.username}) · Shiplog`,
            profile.bio ??
              `${profile.displayName} ships ${count === 1 ? '1 public project' : `${count} public projects`} on Shiplog.`,
            `${origin}/u/${encodeURIComponent(profile.username)}`,
          ];
    const tags: MetaTag[] = [
      ['name', 'description', description],
      ['property', 'og:type', 'profile'],
      ['property', 'og:site_name', 'Shiplog'],
      ['property', 'og:title', title],
      ['property', 'og:description', description],
      ['property', 'og:url', url],
      ['property', 'profile:username', profile.username],
      ['name', 'twitter:card', 'summary'],
      ['name', 'twitter:title', title],
      ['name', 'twitter:description', description],
    ];
    return {
      status: 200,
      title,
      cacheControl: cacheControl(fresh),
      meta: metaTags(tags),
    };
  }

  /** The head of a public changelog's page: its title, a preview, and its Atom feed for feed readers. */
  async function changelogHead(req: Request, username: string, projectId: string): Promise<PageHead> {
    const { page, fresh } = await findChangelogs(req, username);
    const changelog = page?.get(projectId);
    if (!changelog) return notFoundHead('Changelog not found · Shiplog', fresh);
    const title = `${changelog.project.name} changelog · Shiplog`;
    const latest = changelog.releases[0];
    const description = latest
      ? `${changelog.project.name} ${latest.version}, by ${changelog.displayName}: every release on Shiplog.`
      : `Every release of ${changelog.project.name}, by ${changelog.displayName}, on Shiplog.`;
    const feed = `${origin(req)}/api/public/users/${encodeURIComponent(changelog.username)}/projects/${projectId}/changelog.atom`;
    return {
      status: 200,
      title,
      cacheControl: cacheControl(fresh),
      meta:
        metaTags([
          ['name', 'description', description],
          ['property', 'og:title', title],
          ['property', 'og:description', description],
        ]) +
        `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(title)}" href="${escapeHtml(feed)}" />`,
    };
  }

  /**
   * A team workspace's status page (`/w/{slug}/status`): the monitors of its public projects, whoever
   * on the team made them, as a user's status page shows theirs; nothing else of the team. A slug the
   * workspace gave up in the last 30 days still finds it, and the answer names its current slug (the
   * page moves to it). Read anew each time: the team's changes are many members' writes, none of
   * which a hold could follow.
   */
  const teamStatus: Action = async (req, res, params) => {
    const workspace = await read<{ workspaceId: string; name: string; slug: string }>(
      req,
      undefined,
      'identity',
      `/public/workspaces/${encodeURIComponent(params.slug ?? '')}`,
    );
    if (!workspace) throw new NotFoundError('Status page not found', 'STATUS_PAGE_NOT_FOUND');
    const projects =
      (await read<PublicProjectFields[]>(
        req,
        undefined,
        'projects',
        `/public/workspaces/${workspace.workspaceId}/projects`,
      )) ?? [];
    const page: PublicTeamStatus = {
      workspace: { name: workspace.name, slug: workspace.slug },
      ...(await monitorsOf(req, undefined, projects, `/public/workspaces/${workspace.workspaceId}/status`)),
    };
    res.setHeader('Cache-Control', cacheControl(positions.of(req) !== undefined));
    res.type('json');
    sendWithETag(req, res, JSON.stringify(page));
  };

  return {
    publicProfile,
    publicStatus,
    teamStatus,
    changelog,
    changelogFeed,
    changelogHead,
    badge: badgeAction({ profile: find, status: findStatus, cacheControl }),
    pageHead,
  };
}

/**
 * Public pages are the same for every reader, so shared caches may keep them, but ask again each time
 * (their ETag makes that a 304): what its owner made private is not served by a cache afterwards. A
 * reader who has just written must see it, so theirs is private.
 */
const cacheControl = (fresh: boolean) => (fresh ? 'private, no-cache' : 'public, no-cache');

/** A `<meta>` element: its attribute (`name` or `property`), that attribute's value, and its content. */
type MetaTag = [kind: 'name' | 'property', name: string, content: string];

const metaTags = (tags: MetaTag[]) =>
  tags.map(([kind, name, content]) => `<meta ${kind}="${name}" content="${escapeHtml(content)}" />`).join('');

/** The head of a public page that is not there: its title, kept out of search engines. */
const notFoundHead = (title: string, fresh: boolean): PageHead => ({
  status: 404,
  title,
  meta: '<meta name="robots" content="noindex" />',
  cacheControl: cacheControl(fresh),
});

/** A public changelog's page and its feed, on this server. */
export const changelogPath = (username: string, projectId: string) =>
  `/u/${encodeURIComponent(username)}/${projectId}/changelog`;

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The Atom document of a changelog: its page, and one entry per release with its notes and changes. */
export function atomFeed(changelog: PublicChangelog, origin: string): string {
  const page = `${origin}${changelogPath(changelog.username, changelog.project.id)}`;
  const updated = changelog.releases[0]?.at ?? new Date(0).toISOString();
  const entries = changelog.releases.map((release) => {
    const html = [
      release.notes ? `<p>${escapeHtml(release.notes)}</p>` : '',
      release.changes.length ? `<ul>${release.changes.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>` : '',
    ].join('');
    const link = `${page}#${encodeURIComponent(release.version)}`;
    return [
      '<entry>',
      `<title>${xml(release.version)}</title>`,
      `<id>${xml(link)}</id>`,
      `<link rel="alternate" type="text/html" href="${xml(link)}"/>`,
      `<updated>${release.at}</updated>`,
      `<content type="html">${xml(html || escapeHtml(release.version))}</content>`,
      '</entry>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<title>${xml(`${changelog.project.name} changelog`)}</title>`,
    changelog.project.description ? `<subtitle>${xml(changelog.project.description)}</subtitle>` : '',
    `<id>${xml(page)}</id>`,
    `<link rel="alternate" type="text/html" href="${xml(page)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${xml(`${origin}/api/public/users/${encodeURIComponent(changelog.username)}/projects/${changelog.project.id}/changelog.atom`)}"/>`,
    `<updated>${updated}</updated>`,
    `<author><name>${xml(changelog.displayName)}</name></author>`,
    '<generator>Shiplog</generator>',
    ...entries,
    '</feed>',
  ].join('\n');
}
