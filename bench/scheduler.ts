/**
 * Scheduler benchmark: 10,000 reminders due in the same minute, sent to a local SMTP sink.
 * Reports how long the batch took, how late the emails were past their send time (p50 / p99), and
 * proves none was sent twice. Real PostgreSQL, NATS and SMTP; identity, projects and reminders
 * services in this process (`startServices` of `@shiplog/system`, as the tests' backend starts them);
 * the scheduler ticking every 250 ms as in production.
 */
import { createScheduler } from '@shiplog/reminders/scheduler';
import { createMailer, signInternalToken } from '@shiplog/service-kit';
import { startServices } from '@shiplog/system';
import { startSmtpStandIn } from '@shiplog/testing/smtp';

export interface SchedulerResult {
  reminders: number;
  sent: number;
  duplicates: number;
  seconds: number;
  delayP50Ms: number;
  delayP99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function runScheduler(count = 10_000): Promise<SchedulerResult> {
  const smtp = await startSmtpStandIn();
  const smtpUrl = smtp.url;
  const arrivalOf = ({ raw, at }: { raw: string; at: number }) => ({
    id: /reminders\/([0-9a-f-]{36})\/complete/.exec(raw)?.[1] ?? 'unknown',
    at,
  });
  const system = await startServices(['identity', 'projects', 'reminders'], {
    name: 'bench_sched',
    env: {
      SCHEDULER_ENABLED: 'false',
      // Identity mails the link that proves the user's address here too: reminders go only to a proven one.
      SMTP_URL: smtpUrl,
    },
  });
  const { identity, projects, reminders } = system.running;
  const secret = system.internalTokenSecret;
  try {
    const anonymous = signInternalToken(secret, { userId: null, username: null, isAdmin: false });
    const registered = await fetch(`${identity.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shiplog-internal-token': anonymous },
      body: JSON.stringify({
        username: `bench${Date.now().toString(36)}`,
        password: 'bench-password',
        email: 'bench@example.com',
      }),
    });
    const user = (await registered.json()) as { id: string; username: string };
    // The owner opens the link mailed to them; then the sink is emptied for the reminders.
    let link: string | undefined;
    while (!link) {
      link = smtp.received.map((m) => /\/verify-email#([\w-]{64})/.exec(m.raw)?.[1]).find(Boolean);
      if (!link) await new Promise((r) => setTimeout(r, 50));
    }
    const verified = await fetch(`${identity.url}/email-verification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shiplog-internal-token': anonymous },
      body: JSON.stringify({ token: link }),
    });
    if (verified.status !== 200) throw new Error(`verifying the address answered ${verified.status}`);
    smtp.received.length = 0;
    const token = signInternalToken(secret, { userId: user.id, username: user.username, isAdmin: false });
    const headers = { 'content-type': 'application/json', 'x-shiplog-internal-token': token };
    const project = (await (
      await fetch(`${projects.url}/projects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Busy minute' }),
      })
    ).json()) as {
      id: string;
    };
    // Wait for the reminders service to know the project and the user's proven address.
    for (;;) {
      const probe = await fetch(`${reminders.url}/reminders/project/${project.id}`, { headers });
      const { rows: proven } = await reminders.context.pool.query(
        'SELECT 1 FROM reminders.users WHERE user_id = $1 AND email_verified',
        [user.id],
      );
      if (probe.status === 200 && proven.length === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const due = new Date(Date.now() + 90_000);
    due.setSeconds(0, 0);
    if (due.getTime() - Date.now() < 60_000) due.setMinutes(due.getMinutes() + 1);
    // Spread across the due minute: every reminder is due at some second of the same minute.
    let created = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (created < count) {
          const n = created++;
          const dueDate = new Date(due.getTime() + (n % 60) * 1000).toISOString();
          const response = await fetch(`${reminders.url}/reminders`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              projectId: project.id,
              title: `Reminder ${n}`,
              dueDate,
              reminderTimes: ['at_time'],
            }),
          });
          if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        }
      }),
    );
    // The schedule index must hold all of them before the minute starts.
    const { pool } = reminders.context;
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM reminders.schedule');
      if (rows[0]!.n >= count) break;
      if (Date.now() > due.getTime()) throw new Error('reminders were not all scheduled before they fell due');
      await new Promise((r) => setTimeout(r, 200));
    }
    const scheduler = createScheduler(
      { ...reminders.context, config: { ...reminders.context.config, SCHEDULER_INTERVAL_MS: 250 } },
      createMailer({ smtpUrl, from: 'Shiplog <bench@shiplog.test>', logger: reminders.context.logger }),
      // Email only: nobody here has turned push on.
      null,
    );
    scheduler.start();
    const deadline = due.getTime() + 180_000;
    while (smtp.received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A moment more, for any duplicate to show itself.
    await new Promise((r) => setTimeout(r, 2000));
    await scheduler.stop();

    const sendAt = new Map<string, number>();
    const ids = new Set<string>();
    let duplicates = 0;
    const delays: number[] = [];
    const { rows } = await pool.query<{ id: string; due: Date }>(
      'SELECT id, due_date AS due FROM reminders.reminder_list',
    );
    for (const row of rows) sendAt.set(row.id, row.due.getTime());
    const arrivals = smtp.received.map(arrivalOf);
    for (const arrival of arrivals) {
      if (ids.has(arrival.id)) duplicates += 1;
      ids.add(arrival.id);
      const at = sendAt.get(arrival.id);
      if (at !== undefined) delays.push(Math.max(0, arrival.at - at));
    }
    delays.sort((a, b) => a - b);
    const last = arrivals.at(-1)?.at ?? Date.now();
    return {
      reminders: count,
      sent: ids.size,
      duplicates,
      seconds: Math.round((last - due.getTime()) / 100) / 10,
      delayP50Ms: Math.round(percentile(delays, 50)),
      delayP99Ms: Math.round(percentile(delays, 99)),
    };
  } finally {
    await system.stop();
    await smtp.stop();
  }
}
