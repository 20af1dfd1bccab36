import type { Project, Reminder, Shipped } from '@shiplog/schemas';
import type { Caller, ServiceClients, ServiceName } from '@shiplog/service-kit';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

/** A function the model may call: its definition as the model sees it, and what running it answers. */
export interface AssistantTool {
  definition: ChatCompletionFunctionTool;
  run: (args: Record<string, unknown>) => Promise<unknown>;
}

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) =>
  ({
    type: 'function',
    function: { name, description, parameters: { type: 'object', properties, additionalProperties: false } },
  }) as const satisfies ChatCompletionFunctionTool;

/** Long free text is cut: the model needs the gist, and a request must stay small. */
const clip = (text: string | null | undefined, max = 300) =>
  text ? (text.length > max ? `${text.slice(0, max)}…` : text) : undefined;

/**
 * The user's own data, read through the owning services' APIs as the caller: what the gateway would
 * show this user, never a table of another service and never another user's rows. `after` is the
 * positions of the user's own last writes (the request's `x-shiplog-after`): a project made just
 * before the question is in the answer.
 */
export function userDataTools(
  services: ServiceClients,
  caller: Caller,
  now: Date,
  after: string | undefined,
): AssistantTool[] {
  async function read<T>(service: ServiceName, path: string): Promise<T> {
    const answer = await services.call<T>(service, { method: 'GET', path, caller, after });
    if (answer.status !== 200) throw new Error(`The ${service} service answered ${answer.status}`);
    return answer.body;
  }

  return [
    {
      definition: tool(
        'list_projects',
        "The user's projects: name, status, checklist progress (of 5), monthly cost estimate in USD, description.",
      ),
      run: async () =>
        (await read<Project[]>('projects', '/projects')).map((p) => ({
          name: p.name,
          status: p.status,
          checklist: `${Object.values(p.checklist).filter(Boolean).length}/5`,
          checklistDone: Object.entries(p.checklist)
            .filter(([, done]) => done)
            .map(([item]) => item),
          costEstimateUsd: p.costEstimate,
          description: clip(p.description),
          updatedAt: p.updatedAt,
        })),
    },
    {
      definition: tool('list_reminders', "The user's reminders that are not completed, overdue first, then upcoming.", {
        which: { type: 'string', enum: ['all', 'overdue', 'upcoming'], description: 'Default all.' },
      }),
      run: async ({ which }) => {
        const open = (await read<Reminder[]>('reminders', '/reminders')).filter((r) => !r.isCompleted);
        return open
          .map((r) => ({
            title: r.title,
            project: r.projectName,
            dueDate: r.dueDate,
            frequency: r.frequency,
            overdue: new Date(r.dueDate) < now,
            description: clip(r.description, 200),
          }))
          .filter((r) => (which === 'overdue' ? r.overdue : which === 'upcoming' ? !r.overdue : true))
          .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
      },
    },
    {
      definition: tool(
        'recent_activity',
        "The user's timeline, newest first: backups, deployments, releases, status changes, quick updates. A release or deployment names its version, its changes, and what it shipped (the commits and pull requests since the one before, from GitHub).",
        {
          limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many entries; default 10.' },
          version: {
            type: 'string',
            description: 'Only the releases and deployments of this version (e.g. "1.4.0"), to say what changed in it.',
          },
        },
      ),
      run: async ({ limit, version }) => {
        const count = typeof limit === 'number' && Number.isInteger(limit) ? Math.min(20, Math.max(1, limit)) : 10;
        const wanted = typeof version === 'string' && version.trim() ? version.trim().replace(/^v/i, '') : null;
        const rows = await read<
          {
            action: string;
            details: string | null;
            eventType: string;
            timestamp: string;
            version: string | null;
            metadata: { changes?: string[]; shipped?: Shipped } | null;
          }[]
        >('activity', `/activities?page=1&limit=${wanted ? 100 : count}`);
        return rows
          .filter((a) => !wanted || a.version?.replace(/^v/i, '') === wanted)
          .slice(0, count)
          .map((a) => ({
            what: a.action,
            details: clip(a.details, 200),
            type: a.eventType,
            at: a.timestamp,
            ...(a.version ? { version: a.version } : {}),
            ...(a.metadata?.changes?.length ? { changes: a.metadata.changes.slice(0, 20) } : {}),
            ...(a.metadata?.shipped
              ? {
                  shipped: {
                    pullRequests: a.metadata.shipped.pullRequests.slice(0, 20).map((p) => `#${p.number} ${p.title}`),
                    commits: a.metadata.shipped.commits.slice(-20).map((c) => `${clip(c.message, 120)} (${c.author})`),
                  },
                }
              : {}),
          }));
      },
    },
  ];
}

/** Offered to free users who have not had today's boost: the model may grant it when asked. */
export function boostTool(grant: () => Promise<boolean>): AssistantTool {
  return {
    definition: tool(
      'grant_daily_boost',
      'Grants the user 9 extra chat messages for today. Call it only when the user asks for more messages. Once a day.',
    ),
    run: async () =>
      (await grant())
        ? { granted: true, extraMessages: 9 }
        : { granted: false, reason: 'The daily boost was already used today.' },
  };
}
