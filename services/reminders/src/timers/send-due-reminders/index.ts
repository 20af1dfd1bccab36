import { randomUUID } from 'node:crypto';
import { ConcurrencyError } from '@shiplog/event-store';
import { reminderTimeOffsets } from '@shiplog/schemas';
import {
  type Email,
  escapeHtml,
  handleCommand,
  type Mailer,
  repeating,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { PushMessage, PushSender } from '../../adapters/web-push.ts';
import type { RemindersEnv } from '../../env.ts';
import { pushSubscriptions } from '../../push/subscriptions.ts';
import { dueReminders } from '../../read-models/reminder-list/index.ts';
import { reminderDecider } from '../../reminder/decide.ts';
import { type ActiveReminder, reminderStream } from '../../reminder/reminder.ts';

/**
 * Sends reminders at their reminder times. Each tick takes the reminders whose next moment has come
 * (the `schedule` index), and for each decides what is due against its stream: the sends are
 * appended first, with the expected revision, and only then emailed. A second scheduler deciding the
 * same sends loses the append (409) and sends nothing; after a restart the store already holds them.
 * So an email is never sent twice; one could be lost if the process dies between append and send.
 * Each send also goes, as a push notification with the same one-tap link, to every device its owner
 * turned push on for (`push`, when the server has a VAPID key), a few at a time (`sendToEach`) and
 * beside the other reminders' sends; a device the push service reports gone is forgotten.
 */
export function createScheduler(context: ServiceContext<RemindersEnv>, mailer: Mailer, push: PushSender | null) {
  const { pool, store, logger, config, metrics } = context;

  async function tick(now: Date = context.now(), limit = 500): Promise<{ sent: number; reminders: number }> {
    // Reminders go only to an address its owner proved is theirs: anyone can type someone else's.
    const rows = await dueReminders(pool, now, limit);
    let sent = 0;
    const pushes: Promise<unknown>[] = [];
    await Promise.all(
      chunks(rows, 16).map(async (chunk) => {
        for (const { reminder_id: reminderId, user_id: userId, email, next_at: nextAt, workspace_id: space } of chunk) {
          const channel = email && mailer.sends ? 'email' : 'log';
          try {
            const result = await handleCommand(
              store,
              reminderStream(reminderId),
              reminderDecider,
              { type: 'ProcessDue', channel, space },
              { userId: null, correlationId: randomUUID(), now },
            );
            for (const event of result.events) {
              if (event.type !== 'ReminderNotificationSent' || result.state.lifecycle !== 'active') continue;
              const message = composeEmail(
                result.state,
                event.data.occurrence,
                event.data.reminderTime,
                email ?? '',
                config.APP_URL,
              );
              // Without a verified address (or without SMTP) the log says so; the email's one-tap link is
              // a credential, so its text is there only at debug.
              if (channel === 'email') await mailer.send(message);
              else {
                logger.info(
                  { reminderId },
                  userId
                    ? 'reminder due, not emailed: no verified address or no SMTP_URL'
                    : 'reminder due, sent to nobody: its assignee may no longer change its project',
                );
                logger.debug({ reminderId, subject: message.subject, text: message.text }, 'the reminder not emailed');
              }
              // Pushed beside the chunk's next reminders, not before them: a slow push service holds no one else's.
              if (push && userId)
                pushes.push(
                  pushToDevices(
                    push,
                    userId,
                    reminderId,
                    composePush(notice(result.state, event.data.occurrence, event.data.reminderTime, config.APP_URL)),
                  ).catch((error: unknown) => logger.error({ err: error, reminderId }, 'could not push a reminder')),
                );
              sent += 1;
              // How late it went out, by the scheduler's clock (shiplog_reminder_send_delay_seconds).
              metrics.reminderDelay(Math.max(0, now.getTime() - nextAt.getTime()) / 1000);
            }
          } catch (error) {
            // Another scheduler decided this reminder first: its sends are its own.
            if (error instanceof ConcurrencyError) continue;
            logger.error({ err: error, reminderId }, 'could not process a due reminder');
          }
        }
      }),
    );
    await Promise.all(pushes);
    return { sent, reminders: rows.length };
  }

  /** The push, once to each of the owner's devices; a failure is logged and the others still get theirs. */
  async function pushToDevices(sender: PushSender, userId: string, reminderId: string, message: PushMessage) {
    const devices = await pushSubscriptions.devicesOf(pool, userId);
    // The reminder's id (hex, 32 characters) as the topic: an offline device gets only the latest.
    const outcomes = await sender.sendToEach(devices, message, reminderId.replaceAll('-', ''));
    for (const [index, result] of outcomes.entries()) {
      if (result.outcome === 'gone') await pushSubscriptions.forget(pool, devices[index]!.endpoint);
      // The endpoint is a credential: never in the log.
      else if (result.outcome === 'failed')
        logger.warn({ reminderId, status: result.status }, 'could not push a reminder (status 0: no answer)');
    }
  }

  const loop = repeating(() => tick(), config.SCHEDULER_INTERVAL_MS, logger, 'scheduler tick');
  return {
    tick,
    start: loop.start,
    async stop() {
      await loop.stop();
      mailer.close();
    },
  };
}

function chunks<T>(items: T[], parallel: number): T[][] {
  const out: T[][] = Array.from({ length: Math.min(parallel, items.length) }, () => []);
  for (const [i, item] of items.entries()) out[i % out.length]!.push(item);
  return out;
}

/** What a send says, by email or push: the reminder, when it is due, and its one-tap completion link. */
interface Notice {
  reminder: ActiveReminder;
  when: string;
  due: string;
  link: string;
}

function notice(
  reminder: ActiveReminder,
  occurrence: string,
  reminderTime: keyof typeof reminderTimeOffsets,
  appUrl: string,
): Notice {
  return {
    reminder,
    due: new Date(occurrence).toUTCString(),
    link: `${appUrl.replace(/\/$/, '')}/reminders/${reminder.id}/complete`,
    when:
      reminderTime === 'at_time'
        ? 'is due now'
        : `is due ${reminderTimeOffsets[reminderTime].label.replace(' before', '')} from now`,
  };
}

/** The push: title, project and when, tapped to the same link that completes the reminder. */
export function composePush({ reminder, when, link }: Notice): PushMessage {
  return { title: reminder.title, body: `${reminder.projectName} ${when}`, url: link, tag: `reminder-${reminder.id}` };
}

/** The email: project, title, due time and a one-tap link that completes the reminder. */
export function composeEmail(
  reminder: ActiveReminder,
  occurrence: string,
  reminderTime: keyof typeof reminderTimeOffsets,
  to: string,
  appUrl: string,
): Email {
  const { when, due, link } = notice(reminder, occurrence, reminderTime, appUrl);
  const text = [
    `${reminder.title} (${reminder.projectName}) ${when}.`,
    '',
    `Project: ${reminder.projectName}`,
    `Reminder: ${reminder.title}`,
    `Due: ${due}`,
    ...(reminder.description ? ['', reminder.description] : []),
    '',
    `Mark it done: ${link}`,
  ].join('\n');
  const html = `<p><strong>${escapeHtml(reminder.title)}</strong> (${escapeHtml(reminder.projectName)}) ${escapeHtml(when)}.</p>
<p>Project: ${escapeHtml(reminder.projectName)}<br>Due: ${escapeHtml(due)}</p>
${reminder.description ? `<p>${escapeHtml(reminder.description)}</p>` : ''}
<p><a href="${escapeHtml(link)}">Mark it done</a></p>`;
  return { to, subject: `Reminder: ${reminder.title} - ${reminder.projectName}`, text, html };
}
