import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * The project's stand-in for a mail server: a real SMTP server on a free port of 127.0.0.1, so the
 * reminders service's nodemailer speaks the real protocol to it. It keeps every message it accepts.
 */
export interface ReceivedEmail {
  to: string[];
  /** The message as sent, quoted-printable soft breaks and escapes undone, so it reads as text. */
  raw: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface SmtpStandIn {
  url: string;
  /** `SMTP_URL` for the reminders service. */
  env: Record<string, string>;
  received: ReceivedEmail[];
  stop(): Promise<void>;
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const received: ReceivedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A sender's pooled connection would hold a stop for the library's 30 s: ended after 200 ms.
    closeTimeout: 200,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on('end', () => {
        const decoded = raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: decoded, at: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    url,
    env: { SMTP_URL: url },
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
