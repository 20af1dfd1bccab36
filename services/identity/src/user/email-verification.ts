import { randomBytes } from 'node:crypto';
import { AppError } from '@shiplog/errors';
import {
  callerOf,
  type Email,
  escapeHtml,
  handleCommand,
  type Mailer,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { IdentityEnv } from '../env.ts';
import { hashTokenText, idBytes, idOf } from './api-token.ts';
import { EMAIL_VERIFICATION_HOURS, userDecider } from './decide.ts';
import { emailVerificationRoutes } from './routes.ts';
import { userStream } from './user.ts';

/**
 * Proving an address (OWASP ASVS 2.x: nothing is mailed on behalf of a user to an address they have
 * not shown is theirs). A link is mailed to the address; its secret is the base64url of the user's id
 * and 32 random bytes, and only its SHA-256 is kept (EmailVerificationRequested). The secret rides in
 * the link's `#` part, so it reaches no server log; the page posts it back. Opening it appends
 * EmailVerified, which the reminders service waits for before it emails a reminder.
 */
export function newVerificationSecret(userId: string): string {
  return Buffer.concat([idBytes(userId), randomBytes(32)]).toString('base64url');
}

/** The user a link's secret names, or null when it is not one of ours. */
export function userOfSecret(secret: string): string | null {
  if (!/^[\w-]{64}$/.test(secret)) return null;
  const bytes = Buffer.from(secret, 'base64url');
  return bytes.length === 48 ? idOf(bytes.subarray(0, 16)) : null;
}

export const hashSecret = hashTokenText;

/** The link's email. */
export function verificationEmail(to: string, secret: string, appUrl: string): Email {
  const link = `${appUrl.replace(/\/$/, '')}/verify-email#${secret}`;
  const text = [
    'Confirm that this address is yours, so Shiplog can email you your reminders:',
    '',
    link,
    '',
    `The link works for ${EMAIL_VERIFICATION_HOURS} hours. If you did not add this address to a Shiplog account, ignore this email: nothing will be sent to it.`,
  ].join('\n');
  const html = `<p>Confirm that this address is yours, so Shiplog can email you your reminders:</p>
<p><a href="${escapeHtml(link)}">Verify my email address</a></p>
<p>The link works for ${EMAIL_VERIFICATION_HOURS} hours. If you did not add this address to a Shiplog account, ignore this email: nothing will be sent to it.</p>`;
  return { to, subject: 'Verify your email address for Shiplog', text, html };
}

/**
 * The routes that prove an address, and `mailLink`, which the registration and account-info routes
 * call when an address is added or changed.
 */
export function emailVerificationApi(context: ServiceContext<IdentityEnv>, mailer: Mailer) {
  const { store, config, logger } = context;

  /**
   * Mails a new link to the account's address, replacing any earlier one. The event is appended
   * first, so a link that was mailed always works. `strict`: a mail server that refuses is a 503 the
   * user can retry; otherwise (the address was just saved) it is logged, and Settings offers to resend.
   */
  async function mailLink(userId: string, ctx: { correlationId: string }, strict: boolean): Promise<void> {
    const secret = newVerificationSecret(userId);
    const result = await handleCommand(
      store,
      userStream(userId),
      userDecider,
      { type: 'RequestEmailVerification', tokenHash: hashSecret(secret) },
      { userId, correlationId: ctx.correlationId, now: context.now() },
    );
    if (result.state.status !== 'registered' || !result.state.email) return;
    try {
      await mailer.send(verificationEmail(result.state.email, secret, config.APP_URL));
    } catch (error) {
      logger.error({ err: error, userId }, 'the verification email could not be sent');
      if (strict)
        throw new AppError(
          503,
          'MAIL_UNAVAILABLE',
          'The verification email could not be sent. Please try again later.',
        );
    }
  }

  const served = serveRoutes(emailVerificationRoutes, {
    // Settings' "Send verification link": a new link to the current address.
    'POST /user/email-verification': async (req, res) => {
      const caller = callerOf(req);
      await mailLink(requireUserId(req), caller, true);
      res.json({ message: 'Verification email sent. Open the link in it to verify your address.' });
    },

    // The link's page posts its secret here; no session needed: the secret is the credential.
    'POST /email-verification': async (req, res, parsed) => {
      const { token } = parsed.body;
      const userId = userOfSecret(token);
      if (!userId)
        throw new AppError(400, 'VERIFICATION_LINK_INVALID', 'This link is not valid. Send a new one from Settings.');
      const result = await handleCommand(
        store,
        userStream(userId),
        userDecider,
        { type: 'VerifyEmail', tokenHash: hashSecret(token) },
        { userId, correlationId: callerOf(req).correlationId, now: context.now() },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      const email = result.state.status === 'registered' ? result.state.email : null;
      res.json({ message: 'Email address verified', email });
    },
  });

  return { ...served, mailLink };
}
