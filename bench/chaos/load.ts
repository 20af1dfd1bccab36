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
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChecklistKey } from '@shiplog/schemas';
import type { Client } from '@shiplog/system';
import type { DomainStandIn } from '@shiplog/testing/domains';
import type { SmtpStandIn } from '@shiplog/testing/smtp';
import type { StripeStandIn } from '@shiplog/testing/stripe';
import { chaosOperations } from './operations.ts';
import { chaosUsers } from './users.ts';

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

export interface Field<T> {
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
  /** The team workspace the user made, when its creation was acknowledged: half their new projects go there. */
  workspaceId?: string;
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

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const rand = random(options.seed);
  const byKind: Record<string, number> = {};
  let operations = 0;
  const started = Date.now();
  const chaos = chaosUsers(options, rand);
  const { register } = chaos;
  const operationsList = chaosOperations(chaos, options);

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
    sent: chaos.sent,
    operations,
    operationsByKind: byKind,
    ...chaos.tally,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
