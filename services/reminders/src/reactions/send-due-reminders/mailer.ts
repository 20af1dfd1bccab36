import type { Logger } from '@shiplog/service-kit';
import type { Transporter } from 'nodemailer';

export interface ReminderEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** True when SMTP_URL is set: emails are sent, not only logged. */
  sends: boolean;
  send(email: ReminderEmail): Promise<void>;
  close(): void;
}

/** nodemailer to SMTP_URL; without it, each email is written to the log instead. */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      sends: false,
      async send(email) {
        options.logger.info(
          { to: email.to, subject: email.subject, text: email.text },
          'reminder email (SMTP_URL not set, so logged)',
        );
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
