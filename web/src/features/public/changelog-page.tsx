import type { PublicChangelog } from '@shiplog/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Rss } from 'lucide-react';
import { useEffect } from 'react';
import { apiRequest, isNotFound } from '../../lib/api';
import { formatDate, versionLabel } from '../../lib/format';
import { keys } from '../../lib/queries';
import { Card, CardContent } from '../../ui/card';
import { PublicPageFrame } from './public-header';

const feedUrl = (username: string, projectId: string) =>
  `/api/public/users/${encodeURIComponent(username)}/projects/${projectId}/changelog.atom`;

const changelogQuery = (username: string, projectId: string) =>
  queryOptions({
    queryKey: [...keys.publicProfile, username, 'changelog', projectId],
    queryFn: async () => {
      try {
        return await apiRequest<PublicChangelog>(
          'GET',
          `/api/public/users/${encodeURIComponent(username)}/projects/${projectId}/changelog`,
        );
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });

/**
 * `/u/{username}/{projectId}/changelog`: a public project's releases, newest first, readable signed
 * out, with its Atom feed. Its version, notes and changes only; a private project is "not found".
 */
export function ChangelogPage() {
  const { username, projectId } = useParams({ from: '/u/$username/$projectId/changelog' });
  const query = useQuery(changelogQuery(username, projectId));
  const changelog = query.data;
  useEffect(() => {
    if (changelog) document.title = `${changelog.project.name} changelog · Shiplog`;
  }, [changelog]);
  return (
    <PublicPageFrame query={query} notFound="Changelog not found">
      {(page) => (
        <>
          <header className="space-y-2">
            <h1 className="text-2xl font-semibold">{page.project.name} changelog</h1>
            {page.project.description ? <p className="text-muted-foreground">{page.project.description}</p> : null}
            <p className="flex flex-wrap items-center gap-3 text-sm">
              <span>
                By{' '}
                <Link
                  to="/u/$username"
                  params={{ username: page.username }}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {page.displayName}
                </Link>
              </span>
              <a
                href={feedUrl(page.username, page.project.id)}
                className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
              >
                <Rss className="size-4" aria-hidden /> Atom feed
              </a>
            </p>
          </header>
          {page.releases.length === 0 ? (
            <p className="text-sm text-muted-foreground">No release yet.</p>
          ) : (
            <ol className="space-y-4" aria-label="Releases">
              {page.releases.map((release) => (
                <li key={`${release.version}-${release.at}`} id={encodeURIComponent(release.version)}>
                  <Card>
                    <CardContent className="space-y-2 pt-6">
                      <h2 className="flex flex-wrap items-baseline gap-2 text-lg font-semibold">
                        {versionLabel(release.version)}
                        <time dateTime={release.at} className="text-sm font-normal text-muted-foreground">
                          {formatDate(release.at)}
                        </time>
                      </h2>
                      {release.notes ? <p className="whitespace-pre-line text-sm">{release.notes}</p> : null}
                      {release.changes.length > 0 ? (
                        <ul className="list-disc space-y-0.5 pl-5 text-sm">
                          {release.changes.map((change) => (
                            <li key={change}>{change}</li>
                          ))}
                        </ul>
                      ) : null}
                    </CardContent>
                  </Card>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </PublicPageFrame>
  );
}
