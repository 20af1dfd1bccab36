/**
 * What the chaos run's users do, each a kind with a weight (how often it is picked) and a `run` that
 * does it once as one user and notes in their ledger what the app acknowledged; `run` answers false
 * when the user has nothing to do it to (no project yet, say), and another is picked.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { checklistKeys, projectStatuses } from '@shiplog/schemas';
import type { LoadOptions, ProjectLedger, UserLedger } from './load.ts';
import { acknowledged, type ChaosUsers, unknown } from './users.ts';

export interface Operation {
  kind: string;
  weight: number;
  run: (user: UserLedger) => Promise<boolean>;
}

export function chaosOperations(users: ChaosUsers, options: LoadOptions): Operation[] {
  const { rand, pick, sent, act, create, learnProject, settleExistence, putProject, live, pickLive, recordOutcome } =
    users;
  return [
    {
      kind: 'create project',
      weight: 10,
      run: async (user) => {
        if (live(user).length >= 8) return false;
        const answer = await create(user, 'create project', '/api/projects', {
          name: `Chaos ${randomUUID().slice(0, 8)}`,
          description: `created ${Date.now()}`,
          status: pick(projectStatuses),
          checklist: { hasTests: rand() < 0.5 },
          ...(user.workspaceId && rand() < 0.5 ? { workspaceId: user.workspaceId } : {}),
        });
        if (acknowledged(answer)) learnProject(user, answer.body);
        return true;
      },
    },
    {
      kind: 'update project',
      weight: 12,
      run: async (user) => {
        const project = pickLive(user);
        if (!project) return false;
        const change: Record<string, string> =
          rand() < 0.5 ? { description: `edited ${randomUUID()}` } : { status: pick(projectStatuses) };
        if (rand() < 0.3) change.name = `Chaos ${randomUUID().slice(0, 8)}`;
        await putProject(user, project, 'update project', change, () => {
          for (const key of Object.keys(change)) project.fields[key as keyof ProjectLedger['fields']].certain = false;
        });
        return true;
      },
    },
    {
      kind: 'toggle checklist',
      weight: 14,
      run: async (user) => {
        const project = pickLive(user);
        if (!project) return false;
        const key = pick(checklistKeys);
        await putProject(user, project, 'toggle checklist', { [key]: !project.checklist[key].value }, () => {
          project.checklist[key].certain = false;
        });
        return true;
      },
    },
    {
      kind: 'delete project',
      weight: 3,
      run: async (user) => {
        const project = pickLive(user);
        if (!project || live(user).length < 3) return false;
        const answer = await act(user, 'delete project', 'DELETE', `/api/projects/${project.id}`);
        if (acknowledged(answer)) project.deleted = 'yes';
        // A 404 is a delete that went through before (its answer lost to a fault) or, right after a
        // service's restart, a project its read model has not caught up with: this run cannot tell.
        else if (answer.status === 404 || unknown(answer)) project.deleted = 'maybe';
        return true;
      },
    },
    {
      kind: 'record',
      weight: 14,
      run: async (user) => {
        const project = pickLive(user);
        if (!project) return false;
        const kind = pick(['backup', 'deployment', 'version'] as const);
        const token = `t-${randomUUID()}`;
        const body =
          kind === 'version'
            ? { version: `1.${Math.floor(rand() * 100)}.0`, notes: token, changes: ['Chaos'] }
            : kind === 'deployment'
              ? { environment: 'production', version: '1.0.0', notes: token }
              : { notes: token };
        const answer = await act(user, `record ${kind}`, 'POST', `/api/projects/${project.id}/${kind}`, body);
        settleExistence(project, answer);
        recordOutcome(user, project, answer, { token, projectId: project.id, kind }, kind);
        return true;
      },
    },
    {
      kind: 'quick update',
      weight: 8,
      run: async (user) => {
        const project = pickLive(user);
        if (!project || !user.subscribed) return false;
        const token = `t-${randomUUID()}`;
        const redeployed = rand() < 0.5;
        const answer = await act(user, 'quick update', 'POST', '/api/activities', {
          projectId: project.id,
          notes: token,
          redeployed,
          backedUp: !redeployed,
        });
        settleExistence(project, answer);
        recordOutcome(user, project, answer, { token, projectId: project.id, kind: 'quick_update' }, redeployed);
        return true;
      },
    },
    {
      kind: 'create reminder',
      weight: 7,
      run: async (user) => {
        const project = pickLive(user);
        if (!project || user.reminders.size >= 6) return false;
        // Some fall due during the run and are emailed; the rest are weeks away.
        const dueDuringRun = rand() < 0.4;
        const [soonest, latest] = options.reminderDueSeconds;
        const due = new Date(
          Date.now() + (dueDuringRun ? (soonest + rand() * (latest - soonest)) * 1000 : 30 * 86_400_000),
        );
        const answer = await create(user, 'create reminder', '/api/reminders', {
          projectId: project.id,
          title: `Chaos reminder ${randomUUID().slice(0, 6)}`,
          dueDate: due.toISOString(),
          reminderTimes: ['at_time'],
        });
        settleExistence(project, answer);
        if (acknowledged(answer))
          user.reminders.set(answer.body.id, {
            id: answer.body.id,
            projectId: project.id,
            completed: { value: false, certain: true },
            deleted: 'no',
            dueDuringRun,
          });
        return true;
      },
    },
    {
      kind: 'complete reminder',
      weight: 3,
      run: async (user) => {
        const reminder = pick([...user.reminders.values()].filter((r) => r.deleted !== 'yes' && !r.dueDuringRun));
        if (!reminder) return false;
        const path = `/api/reminders/${reminder.id}/${reminder.completed.value ? 'reactivate' : 'complete'}`;
        const answer = await act(user, 'complete reminder', 'POST', path);
        if (acknowledged(answer)) reminder.completed = { value: answer.body.isCompleted, certain: true };
        else if (unknown(answer)) reminder.completed.certain = false;
        else if (answer.status === 404) reminder.deleted = 'yes';
        return true;
      },
    },
    {
      kind: 'chat',
      weight: 5,
      run: async (user) => {
        const answer = await act(user, 'chat', 'POST', '/api/chat', {
          message: pick(['Which project should I ship next?', 'What is due this week?', 'How are my projects?']),
          conversationHistory: [],
        });
        if (acknowledged(answer)) user.chat.acknowledged += 1;
        else if (unknown(answer)) user.chat.unknown += 1;
        return true;
      },
    },
    {
      kind: 'read',
      weight: 10,
      run: async (user) => {
        const path = pick(['/api/projects', '/api/activities?limit=20', '/api/reminders', '/api/user']);
        await act(user, `read ${path.split('?')[0]}`, 'GET', path);
        return true;
      },
    },
    {
      kind: 'subscribe',
      weight: 2,
      run: async (user) => {
        if (user.subscribed) return false;
        const checkout = await act(user, 'subscribe', 'POST', '/api/stripe/create-checkout-session', {
          priceId: 'price_shiplog_monthly',
          mode: 'subscription',
        });
        if (!acknowledged(checkout)) return true;
        const sessionId = new URL(checkout.body.url).pathname.split('/').pop()!;
        const { events } = await options.stripe.completeCheckout(sessionId, { deliver: false });
        // Stripe delivers each event until it is acknowledged.
        for (const event of events) {
          const until = Date.now() + 60_000;
          for (;;) {
            const at = Date.now();
            const status = await options.stripe.deliver(event).catch(() => 0);
            sent.push({ at, ms: Date.now() - at, op: 'stripe webhook', status, fixedBody: null });
            if ((status >= 200 && status < 300) || Date.now() > until) break;
            await sleep(500);
          }
        }
        user.subscribed = true;
        return true;
      },
    },
    {
      kind: 'import domain',
      weight: 1,
      run: async (user) => {
        if (user.imports.length > 0) return false;
        const saved = await act(user, 'import domain', 'POST', '/api/integrations', {
          siteName: 'Registrar',
          baseUrl: options.domains.url,
          apiKey: options.domains.apiKey,
        });
        if (!acknowledged(saved)) return true;
        const domain = pick(options.domains.domains);
        const imported = await act(user, 'import domain', 'POST', `/api/integrations/${saved.body.id}/import`, {
          projectIds: [domain.id],
        });
        const entry = { integrationId: saved.body.id as string, projectIds: [] as string[] };
        user.imports.push(entry);
        if (acknowledged(imported))
          for (const project of imported.body.projects as { id: string }[]) {
            entry.projectIds.push(project.id);
            const view = await act(user, 'import domain', 'GET', `/api/projects/${project.id}`);
            if (acknowledged(view)) learnProject(user, view.body);
          }
        return true;
      },
    },
  ];
}
