import { ValidationError } from '@shiplog/errors';
import { isStorableText } from '@shiplog/messaging';
import { type DeployHookPlatform, deployHookSchema, type RecordDeploymentInput } from '@shiplog/schemas';
import { parseInput, UNSTORABLE_TEXT_MESSAGE } from '@shiplog/service-kit';
import type { DeploymentSource } from '../project/project.ts';

/** What one delivery to a deploy webhook asks for: a deployment to record, or nothing (and why). */
export type HookDelivery =
  | {
      kind: 'deployment';
      source: DeploymentSource;
      status: DeploymentStatus;
      input: Omit<RecordDeploymentInput, 'status'>;
    }
  | { kind: 'ignored'; platform: DeployHookPlatform; reason: string };

type Environment = RecordDeploymentInput['environment'];
type DeploymentStatus = RecordDeploymentInput['status'];

/**
 * Reads a delivery by its shape: Vercel's webhook (an event's `type` with its `payload`, whatever the
 * event: one webhook can carry `project.created` or `domain.created` beside deployments), Netlify's
 * deploy notification (a deploy with `site_id` and `state`), or else Shiplog's generic JSON
 * (`deployHookSchema`). A platform's finished deployments are recorded, successful or failed; its other
 * events (started, cancelled, promoted…) are acknowledged and ignored, so the platform does not retry.
 * A platform's text is cut to the record's limits rather than refused: the deployment happened.
 */
export function readDelivery(body: unknown): HookDelivery {
  if (isObject(body) && typeof body.type === 'string' && isObject(body.payload))
    return fromVercel(body.type, body.payload);
  if (isObject(body) && typeof body.site_id === 'string' && typeof body.state === 'string') return fromNetlify(body);
  const input = parseInput(deployHookSchema, body);
  return {
    kind: 'deployment',
    source: { platform: 'generic', deploymentId: input.deploymentId },
    status: input.status,
    input: {
      environment: input.environment,
      version: input.version,
      url: input.url,
      notes: input.notes,
      deploymentDetails: { method: 'Webhook', duration: null },
    },
  };
}

/**
 * The platforms' names for a deployment's state, as Maps: a name from the body (`constructor`) finds
 * nothing rather than what every object has.
 */
const vercelStatuses = new Map<string, DeploymentStatus>([
  ['deployment.created', 'started'],
  ['deployment.succeeded', 'success'],
  ['deployment.ready', 'success'],
  ['deployment.error', 'failed'],
]);
const netlifyStatuses = new Map<string, DeploymentStatus>([
  ['building', 'started'],
  ['ready', 'success'],
  ['error', 'failed'],
]);

/**
 * https://vercel.com/docs/webhooks/webhooks-api: `deployment.created` (it started), `deployment.succeeded`
 * and `deployment.error` are recorded; every other event is acknowledged and ignored.
 */
function fromVercel(type: string, payload: Record<string, unknown>): HookDelivery {
  const status = vercelStatuses.get(type);
  if (!status) return { kind: 'ignored', platform: 'vercel', reason: `Vercel's ${cut(type, 100)} is not recorded` };
  const deployment = isObject(payload.deployment) ? payload.deployment : {};
  const meta = isObject(deployment.meta) ? deployment.meta : {};
  const commit = text(meta.githubCommitSha) ?? text(meta.gitlabCommitSha) ?? text(meta.bitbucketCommitSha);
  const environments: Record<string, Environment> = { production: 'production', staging: 'staging' };
  return {
    kind: 'deployment',
    source: { platform: 'vercel', deploymentId: deploymentId(deployment.id) },
    status,
    input: {
      // A preview (target null) is reviewed before production: staging.
      environment: own(environments, text(payload.target)) ?? 'staging',
      version: commit ? commit.slice(0, 7) : null,
      url: webUrl(text(deployment.url)),
      notes: cut(text(meta.githubCommitMessage) ?? text(meta.gitlabCommitMessage) ?? null, 2000),
      deploymentDetails: { method: 'Vercel', duration: null },
    },
  };
}

/** https://docs.netlify.com/site-deploys/deploy-notifications/: the deploy, `building`, `ready` or `error`, is recorded. */
function fromNetlify(deploy: Record<string, unknown>): HookDelivery {
  const status = netlifyStatuses.get(String(deploy.state));
  if (!status)
    return {
      kind: 'ignored',
      platform: 'netlify',
      reason: `Netlify's ${cut(String(deploy.state), 100)} deploy is not recorded`,
    };
  const environments: Record<string, Environment> = {
    production: 'production',
    'deploy-preview': 'staging',
    'branch-deploy': 'development',
  };
  const commit = text(deploy.commit_ref);
  const notes = status === 'failed' ? text(deploy.error_message) : text(deploy.title);
  return {
    kind: 'deployment',
    source: { platform: 'netlify', deploymentId: deploymentId(deploy.id) },
    status,
    input: {
      environment: own(environments, text(deploy.context)) ?? 'production',
      version: commit ? commit.slice(0, 7) : null,
      url: webUrl(text(deploy.deploy_ssl_url) ?? text(deploy.ssl_url) ?? text(deploy.url)),
      notes: cut(notes, 2000),
      deploymentDetails: {
        method: 'Netlify',
        duration: typeof deploy.deploy_time === 'number' ? `${deploy.deploy_time}s` : null,
      },
    },
  };
}

function deploymentId(value: unknown): string {
  if (typeof value === 'string' && !isStorableText(value))
    throw new ValidationError({ deploymentId: [UNSTORABLE_TEXT_MESSAGE] });
  const id = text(value);
  if (!id) throw new ValidationError({ deploymentId: ['Deployment id is required'] });
  if (id.length > 200) throw new ValidationError({ deploymentId: ['Deployment id must be at most 200 characters'] });
  return id;
}

/** A platform's deployment address (Vercel's comes without a scheme), or null when it is not a web address. */
function webUrl(value: string | null): string | null {
  if (!value || value.length > 2000) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** `table[key]` when the table itself has it: never what every object inherits (`constructor`). */
const own = <T>(table: Record<string, T>, key: string | null): T | undefined =>
  key !== null && Object.hasOwn(table, key) ? table[key] : undefined;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A platform's text field, or null (absent, empty, or text PostgreSQL cannot hold). */
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' && isStorableText(value) ? value.trim() : null;
const cut = (value: string | null, max: number) =>
  value && value.length > max ? `${value.slice(0, max - 1)}…` : value;
