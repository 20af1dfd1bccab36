import type { PublicProfile, PublicProject } from '@shiplog/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link, useMatch, useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { apiRequest, isNotFound } from '../../lib/api';
import { formatDate, versionLabel } from '../../lib/format';
import { keys } from '../../lib/queries';
import { formatTimeAgo } from '../../lib/time-ago';
import { Avatar } from '../../ui/avatar';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { ProfileLinks } from '../account/profile-links';
import { StatusBadge } from '../projects/status-badge';
import { ChangelogPage } from './changelog-page';
import { PublicPageFrame } from './public-header';
import { PublicStatusPage, TeamStatusPage } from './public-status-page';

const CHECKLIST_ITEMS = 5;

/**
 * A public profile, or null for a private or missing one. Here rather than in lib/queries.ts, which
 * every first load carries: only this page reads it.
 */
const publicProfileQuery = (username: string) =>
  queryOptions({
    queryKey: [...keys.publicProfile, username],
    queryFn: async () => {
      try {
        return await apiRequest<PublicProfile>('GET', `/api/public/users/${encodeURIComponent(username)}`);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });

/** The public page the address asks for: `/u/{username}` or its status page (one module for both). */
export function PublicPage() {
  const status = useMatch({ from: '/u/$username/status', shouldThrow: false });
  const team = useMatch({ from: '/w/$slug/status', shouldThrow: false });
  const changelog = useMatch({ from: '/u/$username/$projectId/changelog', shouldThrow: false });
  if (changelog) return <ChangelogPage />;
  return team ? <TeamStatusPage /> : status ? <PublicStatusPage /> : <PublicProfilePage />;
}

/**
 * `/u/{username}`: a builder's public page, readable signed out. Only what the profile and
 * its public projects show; a private or missing profile is one "not found" (the server answers the
 * page itself with a 404 and writes its link-preview tags).
 */
export function PublicProfilePage() {
  const { username } = useParams({ from: '/u/$username' });
  const query = useQuery(publicProfileQuery(username));
  const profile = query.data;
  useEffect(() => {
    if (profile) document.title = `${profile.displayName} (@${profile.username}) · Shiplog`;
  }, [profile]);
  return (
    <PublicPageFrame query={query} notFound="Profile not found">
      {(profile) => (
        <>
          <Card>
            <CardContent className="flex flex-col gap-4 pt-6 sm:flex-row sm:items-start">
              <Avatar username={profile.username} className="size-16 text-xl" />
              <div className="min-w-0 flex-1 space-y-2">
                <div>
                  <h1 className="text-2xl font-semibold">{profile.displayName}</h1>
                  <p className="text-sm text-muted-foreground">@{profile.username}</p>
                </div>
                <p className="text-sm">{profile.bio || 'No bio provided'}</p>
                <ProfileLinks profile={profile.links} />
                <Link
                  to="/u/$username/status"
                  params={{ username: profile.username }}
                  className="inline-block text-sm font-medium text-primary underline-offset-4 hover:underline"
                >
                  Status of their projects
                </Link>
              </div>
            </CardContent>
          </Card>
          <section aria-labelledby="public-projects" className="space-y-3">
            <h2 id="public-projects" className="text-lg font-semibold">
              Projects
            </h2>
            {profile.projects.length === 0 ? (
              <p className="text-sm text-muted-foreground">No public projects yet.</p>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2">
                {profile.projects.map((project) => (
                  <li key={project.id}>
                    <PublicProjectCard project={project} username={profile.username} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </PublicPageFrame>
  );
}

function PublicProjectCard({ project, username }: { project: PublicProject; username: string }) {
  const percent = Math.round((project.progress / CHECKLIST_ITEMS) * 100);
  const deployment = project.latestDeployment;
  return (
    <Card className="h-full" data-testid="public-project">
      <CardHeader className="space-y-2">
        <div className="flex items-start justify-between gap-2">
          <CardTitle>{project.name}</CardTitle>
          <StatusBadge status={project.status} />
        </div>
        <p className="text-sm text-muted-foreground">{project.description || 'No description provided.'}</p>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <div>
          <div className="mb-2 flex justify-between text-xs text-muted-foreground">
            <span>Progress</span>
            <span>
              {project.progress} of {CHECKLIST_ITEMS}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`${project.name} progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <dl className="space-y-1">
          <div className="flex justify-between gap-2">
            <dt className="text-muted-foreground">Latest version</dt>
            <dd className="font-medium">
              {project.latestVersion ? (
                <Link
                  to="/u/$username/$projectId/changelog"
                  params={{ username, projectId: project.id }}
                  className="text-primary underline-offset-4 hover:underline"
                  aria-label={`${project.name} changelog: ${versionLabel(project.latestVersion.version)}`}
                >
                  {versionLabel(project.latestVersion.version)}
                </Link>
              ) : (
                '—'
              )}
            </dd>
          </div>
          <div className="flex justify-between gap-2">
            <dt className="shrink-0 text-muted-foreground">Last deployed</dt>
            <dd className="font-medium">
              {deployment ? (
                <time dateTime={deployment.at} title={formatDate(deployment.at, 'MMM d, yyyy h:mm a')}>
                  {[
                    deployment.environment && `to ${deployment.environment}`,
                    deployment.version && versionLabel(deployment.version),
                    formatTimeAgo(deployment.at),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </time>
              ) : (
                'Not yet'
              )}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
