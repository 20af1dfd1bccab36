/**
 * The chaos run's users as the app sees them: each request sent and timed, a session lost and signed
 * in again, creates retried with their Idempotency-Key, and what each acknowledged answer teaches the
 * user's ledger (load.ts says what the ledger is for).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChecklistKey, checklistKeys, type Project } from '@shiplog/schemas';
import { Client } from '@shiplog/system';
import type { Field, LoadOptions, ProjectLedger, RecordLedger, Sent, UserLedger } from './load.ts';

/** Longer than any fault lasts, so an answer that is merely slow is not taken for a lost one. */
const TIMEOUT_MS = 30_000;
const PASSWORD = 'chaos-pass-123';

const isFixedBody = (body: unknown) =>
  body !== null &&
  typeof body === 'object' &&
  typeof (body as { message?: unknown }).message === 'string' &&
  typeof (body as { code?: unknown }).code === 'string';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as the app's client reads them
export type Answer = { status: number; body: any };
export const acknowledged = (a: Answer) => a.status >= 200 && a.status < 300;
export const unknown = (a: Answer) => a.status === 0 || a.status >= 500;

export type ChaosUsers = ReturnType<typeof chaosUsers>;

/** The users' shared means: `rand` and `pick` are the run's seeded choices. */
export function chaosUsers(options: LoadOptions, rand: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const sent: Sent[] = [];
  const tally = { signedInAgain: 0, unresolvedCreates: 0 };
  const runId = Date.now().toString(36);

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
        tally.signedInAgain += 1;
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
        if (unknown(answer)) tally.unresolvedCreates += 1;
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

  /**
   * An answer about one project: an acknowledged one settles a delete that was unknown as not made. A
   * 404 settles nothing: it is as likely a project the answering service's read model has not caught
   * up with after a restart (seen: a DELETE of a live project answered 404 while projects caught up)
   * as one deleted, so the verification skips what stays unknown.
   */
  function settleExistence(project: ProjectLedger, answer: Answer) {
    if (acknowledged(answer)) project.deleted = 'no';
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
    let signIns = 0;
    while (Date.now() < until) {
      const answer = await send(user, 'register', 'POST', '/api/register', {
        username,
        password: PASSWORD,
        email: `${username}@example.com`,
      });
      if (acknowledged(answer)) {
        user.id = answer.body.id;
        await verifyAddress(user);
        await openWorkspace(user);
        return user;
      }
      met.push(`${answer.status} ${answer.body?.code ?? ''}`);
      // An earlier try whose answer was lost took the name: 409 now, and signing in tells. A few times
      // at most, as a fault can fail the sign-in too (a sign-in for a name with no account is a failed
      // sign-in, and every user here shares an address).
      if (answer.status === 409 && signIns < 3) {
        signIns += 1;
        const login = await send(user, 'register', 'POST', '/api/login', { username, password: PASSWORD });
        if (acknowledged(login)) {
          user.id = login.body.id ?? (await send(user, 'register', 'GET', '/api/user')).body?.id ?? null;
          await verifyAddress(user);
          await openWorkspace(user);
          return user;
        }
        met.push(`sign-in ${login.status} ${login.body?.code ?? ''}`);
      }
      await sleep(answer.status === 409 ? 5000 : 500);
    }
    throw new Error(`could not register ${username}: ${met.slice(-4).join('; ')}`);
  }

  /**
   * A team workspace of the user's own, on their trial, for half the projects they make: one try, as a
   * user would; a fault that loses it leaves their projects personal.
   */
  async function openWorkspace(user: UserLedger) {
    const answer = await send(user, 'create workspace', 'POST', '/api/workspaces', { name: `${user.username}'s team` });
    if (acknowledged(answer)) user.workspaceId = answer.body.id;
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

  return {
    rand,
    pick,
    sent,
    tally,
    act,
    create,
    learnProject,
    settleExistence,
    putProject,
    live,
    pickLive,
    recordOutcome,
    register,
  };
}
