import { linkRepositorySchema } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { GitBranch, GitCommitHorizontal, Tag } from 'lucide-react';
import { useState } from 'react';
import { formatTimeAgo } from '../../lib/time-ago';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Input, Label } from '../../ui/input';
import { githubQuery, projectRepositoryQuery, useLinkRepository, useUnlinkRepository } from './use-github';

/**
 * A project's GitHub repository on its page: the default branch's last commit and the latest release,
 * as GitHub's webhook reports them. One not yet joined can be, by someone who may change the project
 * and has connected GitHub; for anyone else the card is not there.
 */
export function RepositoryCard({ projectId, readOnly }: { projectId: string; readOnly: boolean }) {
  const { data: repository } = useQuery(projectRepositoryQuery(projectId));
  const { data: connection } = useQuery({ ...githubQuery, enabled: repository === null && !readOnly });
  const unlink = useUnlinkRepository(projectId);
  if (repository === undefined) return null;
  if (repository === null)
    return connection?.connected && !connection.reconnect ? <JoinRepository projectId={projectId} /> : null;
  const { lastCommit, latestRelease } = repository;
  return (
    <Card data-testid="project-repository">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GitBranch className="size-5" aria-hidden /> Repository
        </CardTitle>
        <CardDescription>
          <a href={repository.htmlUrl} target="_blank" rel="noreferrer" className="font-medium underline">
            {repository.fullName}
          </a>{' '}
          · {repository.defaultBranch}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        {lastCommit ? (
          <p className="flex items-start gap-2" data-testid="last-commit">
            <GitCommitHorizontal className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span className="min-w-0">
              <a href={lastCommit.url} target="_blank" rel="noreferrer" className="font-mono text-xs underline">
                {lastCommit.sha.slice(0, 7)}
              </a>{' '}
              <span className="break-words">{lastCommit.message.split('\n')[0]}</span>
              <span className="block text-xs text-muted-foreground">
                {lastCommit.author}, {formatTimeAgo(lastCommit.at)}
              </span>
            </span>
          </p>
        ) : (
          <p className="text-muted-foreground">No commit on {repository.defaultBranch} yet.</p>
        )}
        {latestRelease ? (
          <p className="flex items-center gap-2" data-testid="latest-release">
            <Tag className="size-4 shrink-0" aria-hidden />
            <a href={latestRelease.url} target="_blank" rel="noreferrer" className="underline">
              {latestRelease.tag}
            </a>
            <span className="text-xs text-muted-foreground">{formatTimeAgo(latestRelease.at)}</span>
          </p>
        ) : null}
        {repository.reachable !== false ? null : (
          <p className="text-xs text-muted-foreground" data-testid="repository-out-of-reach">
            Shiplog’s GitHub App no longer has access to this repository, so nothing from it is recorded. Give it access
            again in the app’s settings on GitHub, or part the project from it.
          </p>
        )}
        {repository.webhook ? null : (
          <p className="text-xs text-muted-foreground">
            Its webhook is to be added by hand on GitHub, with the address and secret the{' '}
            <Link to="/integrations" className="underline">
              External API page
            </Link>{' '}
            showed when GitHub was connected: until then nothing from it is recorded.
          </p>
        )}
        {readOnly ? null : (
          <Button variant="ghost" size="sm" disabled={unlink.isPending} onClick={() => unlink.mutate()}>
            Part from the repository
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

function JoinRepository({ projectId }: { projectId: string }) {
  const [name, setName] = useState('');
  const link = useLinkRepository(projectId);
  // The server's own rule for owner/name.
  const valid = linkRepositorySchema.safeParse({ repository: name.trim() }).success;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GitBranch className="size-5" aria-hidden /> Repository
        </CardTitle>
        <CardDescription>
          Join this project to a GitHub repository to record its releases and deployments.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (valid) link.mutate(name.trim());
          }}
        >
          <div className="space-y-2">
            <Label htmlFor="repository-name">Repository (owner/name)</Label>
            <Input
              id="repository-name"
              value={name}
              placeholder="octocat/hello-world"
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <Button type="submit" variant="outline" disabled={!valid || link.isPending}>
            Join
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
