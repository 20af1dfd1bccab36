import type { Activity } from '@shiplog/schemas';

/** The platforms a deploy webhook or GitHub names (the entry's `metadata.source`). */
const platforms: Record<string, string> = {
  vercel: 'Vercel',
  netlify: 'Netlify',
  generic: 'the deploy webhook',
  github: 'GitHub',
};

/**
 * Who did it, when it is worth saying: another member of a team ("by Ada"), a token ("by you with the
 * token “CI”"), or a platform's deploy webhook ("by Vercel"). The user's own entries made in the app,
 * and Shiplog's own checks, say nothing more, as they always did.
 */
export function actorText(activity: Pick<Activity, 'actor' | 'metadata'>, you: string | undefined): string | null {
  const { actor } = activity;
  if (!actor) {
    const source = activity.metadata?.source as { platform?: unknown } | undefined;
    const platform = typeof source?.platform === 'string' ? source.platform : null;
    return platform ? `by ${platforms[platform] ?? platform}` : null;
  }
  const who = actor.userId === you ? 'you' : (actor.username ?? 'a former member');
  if (actor.token) return `by ${who} with the token “${actor.token}”`;
  return who === 'you' ? null : `by ${who}`;
}
