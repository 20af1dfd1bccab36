import type { Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Logger } from './logger.ts';

/** The environment of a service that sends email: add to its `serviceEnv.extend({...})`. */
export const mailEnvFields = {
  /** Where email goes (`smtp://user:password@host:587`, `smtps://…`); unset, emails are not sent. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Shiplog <reminders@shiplog.local>'),
};

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** True when SMTP_URL is set: emails are sent, not only logged. */
  sends: boolean;
  send(email: Email): Promise<void>;
  close(): void;
}

/**
 * nodemailer to SMTP_URL. Without it nothing is sent: the log says an email was not sent at `info`,
 * and holds its text only at `debug`, since an email's links are credentials (a reminder's one-tap
 * link, an address's verification link) and a production log is read by more people than its owner.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      sends: false,
      async send(email) {
        options.logger.info({ subject: email.subject }, 'email not sent: SMTP_URL is not set');
        options.logger.debug({ to: email.to, subject: email.subject, text: email.text }, 'the email not sent');
      },
      close() {},
    };
  }
  // Pooled connections: a busy minute sends many emails, and a connection per email is slow.
  const separator = options.smtpUrl.includes('?') ? '&' : '?';
  const url = `${options.smtpUrl}${separator}pool=true&maxConnections=8&maxMessages=1000`;
  // nodemailer loads with the first email: a process that sends none does not carry it (about 10 MB).
  let transport: Promise<Transporter> | undefined;
  return {
    sends: true,
    async send(email) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url));
      await (await transport).sendMail({ from: options.from, ...email });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
