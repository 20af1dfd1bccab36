/**
 * The chaos run's users: a few hundred of them, each doing one thing at a time as a person in a browser
 * would (sign up, create, edit, toggle, delete projects; reminders; record deployments, backups and
 * versions; Quick Updates once subscribed through Stripe; chat; a domain import), and a ledger of
 * what the app acknowledged to each of them, so the run can check afterwards that nothing answered
 * 2xx was lost and nothing happened twice.
 *
 * Every answer is one of three: acknowledged (2xx: it happened), refused (4xx: it did not), or
 * unknown (5xx, 503, no answer: it may or may not have). Creates carry an `Idempotency-Key` and are
 * retried with it until they are acknowledged or refused, as a careful client does; other writes are
 * not retried, and what they touch is marked uncertain until the next acknowledged answer says.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@shiplog/gateway/testing';
import { type ChecklistKey, checklistKeys, type Project, projectStatuses } from '@shiplog/schemas';
import type { DomainStandIn } from '@shiplog/testing/domains';
import type { SmtpStandIn } from '@shiplog/testing/smtp';
import type { StripeStandIn } from '@shiplog/testing/stripe';

/** One request as the user saw it. `status` 0: no answer (refused connection, reset, or timed out). */
export interface Sent {
  at: number;
  ms: number;
  op: string;
  status: number;
  /** For an answer of 400 or more: whether it carried the fixed error body `{ message, code }`. */
  fixedBody: boolean | null;
  /** Its `code`, when it has one. */
  code?: string;
}

interface Field<T> {
  value: T;
  certain: boolean;
}

type Existence = 'yes' | 'no' | 'maybe';

export interface ProjectLedger {
  id: string;
  fields: { name: Field<string>; description: Field<string | null>; status: Field<string> };
  checklist: Record<ChecklistKey, Field<boolean>>;
  deleted: Existence;
}

export interface ReminderLedger {
  id: string;
  projectId: string;
  completed: Field<boolean>;
  deleted: Existence;
  /** Due during the run, with the at-time reminder: an email is expected once. */
  dueDuringRun: boolean;
}

/** A backup, deployment, version or Quick Update, known by the unique token in its notes. */
export interface RecordLedger {
  token: string;
  projectId: string;
  kind: 'backup' | 'deployment' | 'version' | 'quick_update';
  acknowledged: boolean;
}

export interface UserLedger {
  username: string;
  password: string;
  id: string | null;
  client: Client;
  projects: Map<string, ProjectLedger>;
  reminders: Map<string, ReminderLedger>;
  records: RecordLedger[];
  chat: { acknowledged: number; unknown: number };
  subscribed: boolean;
  imports: { integrationId: string; projectIds: string[] }[];
}

export interface LoadOptions {
  url: string;
  users: number;
  /** Stops once this many operations are done and `mayStop()` says so (the faults are over). */
  operations: number;
  concurrency: number;
  mayStop: () => boolean;
  /** Stops here whatever else, so the run always ends. */
  deadline: number;
  stripe: StripeStandIn;
  domains: DomainStandIn;
  /** Where identity mails the links that prove each user's address (reminders go only to proven ones). */
  smtp: SmtpStandIn;
  /** How far ahead the reminders meant to fall due during the run are set: [min, max] seconds. */
  reminderDueSeconds: [number, number];
  seed: number;
  /** Called once most users have signed up and the mixed load begins. */
  onReady?: () => void;
}

export interface LoadResult {
  users: UserLedger[];
  sent: Sent[];
  operations: number;
  operationsByKind: Record<string, number>;
  /** Sign-ins a user had to make again because their session was gone (Redis lost it). */
  signedInAgain: number;
  /** Creates that stayed unknown through every retry. */
  unresolvedCreates: number;
  seconds: number;
}

/** Longer than any fault lasts, so an answer that is merely slow is not taken for a lost one. */
const TIMEOUT_MS = 30_000;
const PASSWORD = 'chaos-pass-123';

/** mulberry32: a small seeded generator, so a run's choices can be repeated. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isFixedBody = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  typeof (body as { message?: unknown }).message === 'string' &&
  typeof (body as { code?: unknown }).code === 'string';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as the app's client reads them
type Answer = { status: number; body: any };
const acknowledged = (a: Answer) => a.status >= 200 && a.status < 300;
const unknown = (a: Answer) => a.status === 0 || a.status >= 500;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const rand = random(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const sent: Sent[] = [];
  const byKind: Record<string, number> = {};
  let operations = 0;
  let signedInAgain = 0;
  let unresolvedCreates = 0;
  const started = Date.now();
  const runId = started.toString(36);

  async function send(
    user: UserLedger,
    op: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> {
    const at = Date.now();
    let answer: Answer;
    try {
      const response = await user.client.request(method, path, body, headers);
      answer = { status: response.status, body: response.body };
    } catch {
      answer = { status: 0, body: null };
    }
    sent.push({
      at,
      ms: Date.now() - at,
      op,
      status: answer.status,
      fixedBody: answer.status >= 400 ? isFixedBody(answer.body) : null,
      ...(answer.status >= 400 && isFixedBody(answer.body) ? { code: answer.body.code } : {}),
    });
    return answer;
  }

  /** Signs in again, waiting out an outage; false if it could not within 30 s. */
  async function signIn(user: UserLedger): Promise<boolean> {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const answer = await send(user, 'sign in again', 'POST', '/api/login', {
        username: user.username,
        password: user.password,
      });
      if (acknowledged(answer)) {
        signedInAgain += 1;
        return true;
      }
      await sleep(500);
    }
    return false;
  }

  /** A request as the signed-in user: a 401 (the session is gone) signs in again and asks once more. */
  async function act(user: UserLedger, op: string, method: string, path: string, body?: unknown, headers = {}) {
    let answer = await send(user, op, method, path, body, headers);
    if (answer.status === 401 && (await signIn(user))) answer = await send(user, op, method, path, body, headers);
    return answer;
  }

  /** A create, retried with the same Idempotency-Key until it is acknowledged or refused. */
  async function create(user: UserLedger, op: string, path: string, body: unknown): Promise<Answer> {
    const key = randomUUID();
    const until = Date.now() + 60_000;
    for (;;) {
      const answer = await act(user, op, 'POST', path, body, { 'idempotency-key': key });
      if (!unknown(answer) || Date.now() > until) {
        if (unknown(answer)) unresolvedCreates += 1;
        return answer;
      }
      await sleep(300);
    }
  }

  function learnProject(user: UserLedger, view: Project) {
    const certain = <T>(value: T): Field<T> => ({ value, certain: true });
    user.projects.set(view.id, {
      id: view.id,
      fields: { name: certain(view.name), description: certain(view.description), status: certain(view.status) },
      checklist: Object.fromEntries(checklistKeys.map((k) => [k, certain(view.checklist[k])])) as Record<
        ChecklistKey,
        Field<boolean>
      >,
      deleted: 'no',
    });
  }

  /** An answer about one project: 404 settles a delete that was unknown. */
  function settleExistence(project: ProjectLedger, answer: Answer) {
    if (answer.status === 404 && project.deleted === 'maybe') project.deleted = 'yes';
    else if (acknowledged(answer)) project.deleted = 'no';
  }

  /**
   * A PUT of one project: an acknowledged answer is its whole state; after an unknown one,
   * `unsure` marks what the change touched as uncertain.
   */
  async function putProject(
    user: UserLedger,
    project: ProjectLedger,
    op: string,
    change: Record<string, unknown>,
    unsure: () => void,
  ) {
    const answer = await act(user, op, 'PUT', `/api/projects/${project.id}`, change);
    settleExistence(project, answer);
    if (acknowledged(answer)) learnProject(user, answer.body);
    else if (unknown(answer)) unsure();
  }

  const live = (user: UserLedger) => [...user.projects.values()].filter((p) => p.deleted !== 'yes');

  async function register(index: number): Promise<UserLedger> {
    const username = `chaos${runId}u${index}`;
    const user: UserLedger = {
      username,
      password: PASSWORD,
      id: null,
      client: new Client(options.url, { timeoutMs: TIMEOUT_MS }),
      projects: new Map(),
      reminders: new Map(),
      records: [],
      chat: { acknowledged: 0, unknown: 0 },
      subscribed: false,
      imports: [],
    };
    // Long enough for a name left claimed by a sign-up killed half-way to come free (a minute).
    const until = Date.now() + 150_000;
    const met: string[] = [];
    let signedIn = false;
    while (Date.now() < until) {
      const answer = await send(user, 'register', 'POST', '/api/register', {
        username,
        password: PASSWORD,
        email: `${username}@example.com`,
      });
      if (acknowledged(answer)) {
        user.id = answer.body.id;
        await verifyAddress(user);
        return user;
      }
      met.push(`${answer.status} ${answer.body?.code ?? ''}`);
      // An earlier try whose answer was lost took the name: 409 now, and signing in tells, once. (A
      // sign-in for a name with no account is a failed sign-in, and every user here shares an address.)
      if (answer.status === 409 && !signedIn) {
        signedIn = true;
        const login = await send(user, 'register', 'POST', '/api/login', { username, password: PASSWORD });
        if (acknowledged(login)) {
          user.id = login.body.id ?? (await send(user, 'register', 'GET', '/api/user')).body?.id ?? null;
          await verifyAddress(user);
          return user;
        }
        met.push(`sign-in ${login.status} ${login.body?.code ?? ''}`);
      }
      await sleep(answer.status === 409 ? 5000 : 500);
    }
    throw new Error(`could not register ${username}: ${met.slice(-4).join('; ')}`);
  }

  /**
   * Opens the link identity mailed to the user's address, as its owner would, so that their reminders
   * are emailed. Best effort: a link lost with a killed process leaves that user's reminders logged.
   */
  async function verifyAddress(user: UserLedger) {
    const address = `${user.username}@example.com`;
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const mail = options.smtp.received.findLast((m) => m.to.includes(address) && m.raw.includes('/verify-email#'));
      const token = mail && /\/verify-email#([\w-]{64})/.exec(mail.raw)?.[1];
      if (token && acknowledged(await send(user, 'register', 'POST', '/api/email-verification', { token }))) return;
      await sleep(250);
    }
  }

  const operationsList: { kind: string; weight: number; run: (user: UserLedger) => Promise<boolean> }[] = [
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
        if (acknowledged(answer) || answer.status === 404) project.deleted = 'yes';
        else if (unknown(answer)) project.deleted = 'maybe';
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

  function pickLive(user: UserLedger): ProjectLedger | undefined {
    const projects = live(user);
    return projects.length > 0 ? pick(projects) : undefined;
  }

  function recordOutcome(
    user: UserLedger,
    project: ProjectLedger,
    answer: Answer,
    record: Omit<RecordLedger, 'acknowledged'>,
    sets: 'backup' | 'deployment' | 'version' | boolean,
  ) {
    if (!acknowledged(answer) && !unknown(answer)) return;
    user.records.push({ ...record, acknowledged: acknowledged(answer) });
    // Backups tick "backedUp", deployments "deployed"; a Quick Update ticks what it says.
    const flag: ChecklistKey | null =
      sets === 'backup' || sets === false ? 'backedUp' : sets === 'deployment' || sets === true ? 'deployed' : null;
    if (!flag) return;
    project.checklist[flag] = acknowledged(answer)
      ? { value: true, certain: true }
      : { ...project.checklist[flag], certain: project.checklist[flag].certain && project.checklist[flag].value };
  }

  const totalWeight = operationsList.reduce((sum, o) => sum + o.weight, 0);
  function pickOperation() {
    let r = rand() * totalWeight;
    for (const o of operationsList) {
      r -= o.weight;
      if (r < 0) return o;
    }
    return operationsList[0]!;
  }

  // Most sign-ups first (each an operation), a few at a time; the rest join during the run.
  const users: UserLedger[] = [];
  const idle: UserLedger[] = [];
  let signUps = 0;
  const signUp = async () => {
    pending += 1;
    const user = await register(signUps++);
    pending -= 1;
    users.push(user);
    idle.push(user);
    operations += 1;
    byKind.register = (byKind.register ?? 0) + 1;
  };
  let pending = 0;
  const first = Math.ceil(options.users * 0.8);
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (users.length + pending < first) await signUp();
    }),
  );
  options.onReady?.();

  // Then each worker takes the next user and does one thing as them; a user is never in two workers.
  const done = () => Date.now() > options.deadline || (operations >= options.operations && options.mayStop());
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (!done()) {
        if (users.length + pending < options.users && rand() < 0.02) {
          await signUp();
          continue;
        }
        const user = idle.splice(Math.floor(rand() * idle.length), 1)[0];
        if (!user) {
          await sleep(5);
          continue;
        }
        const operation = pickOperation();
        try {
          if (await operation.run(user)) {
            operations += 1;
            byKind[operation.kind] = (byKind[operation.kind] ?? 0) + 1;
          }
        } finally {
          idle.push(user);
        }
      }
    }),
  );

  return {
    users,
    sent,
    operations,
    operationsByKind: byKind,
    signedInAgain,
    unresolvedCreates,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
