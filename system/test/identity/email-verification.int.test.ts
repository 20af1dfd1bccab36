import { userStream } from '@shiplog/identity/user';
import { userDecider } from '@shiplog/identity/user/decide';
import { hashSecret, newVerificationSecret } from '@shiplog/identity/user/email-verification';
import { handleCommand } from '@shiplog/service-kit';
import { type Backend, Client, startBackend } from '@shiplog/system';
import { waitUntil } from '@shiplog/testing';
import { type SmtpStandIn, startSmtpStandIn } from '@shiplog/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** An address is proven by a link mailed to it (SMTP stand-in), before any reminder is emailed there. */
let backend: Backend;
let smtp: SmtpStandIn;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  backend = await startBackend({ env: { ...smtp.env, APP_URL: 'http://shiplog.test' } });
});
afterAll(async () => {
  await backend?.stop();
  await smtp?.stop();
});

/** The secrets of every link mailed to `address`, oldest first, once `count` have come. */
async function linksTo(address: string, count = 1): Promise<string[]> {
  const links = () =>
    smtp.received
      .filter((m) => m.to.includes(address))
      .map((m) => /http:\/\/shiplog\.test\/verify-email#([\w-]{64})/.exec(m.raw)?.[1])
      .filter((s): s is string => Boolean(s));
  await waitUntil(() => links().length >= count);
  return links();
}

const verify = (client: Client, token: unknown) => client.post('/api/email-verification', { token });

describe('email verification', () => {
  it('mails a link at registration that proves the address, signed in or not, and again harmlessly', async () => {
    const { client, username } = await backend.signUp('proof', { email: `${'proof'}@example.com` });
    expect((await client.get('/api/profile')).body).toMatchObject({ email: 'proof@example.com', emailVerified: false });
    const [secret] = await linksTo('proof@example.com');
    const mail = smtp.received.find((m) => m.to.includes('proof@example.com'))!;
    expect(mail.raw).toContain('Subject: Verify your email address for Shiplog');
    // Opened in another browser, with no session: the secret is the credential.
    const elsewhere = new Client(backend.url);
    const answer = await verify(elsewhere, secret);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Email address verified', email: 'proof@example.com' });
    expect((await client.get('/api/profile')).body.emailVerified).toBe(true);
    // A second tap (or a mail client's preview) says the same, and changes nothing.
    expect((await verify(elsewhere, secret)).status).toBe(200);
    // A proven address needs no new link.
    const again = await client.post('/api/user/email-verification');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('EMAIL_ALREADY_VERIFIED');
    expect(username).toBeTruthy();
  });

  it('refuses a link that is not one, a replaced one, and one for an address since changed', async () => {
    const { client } = await backend.signUp('change', { email: 'first@example.com' });
    const [first] = await linksTo('first@example.com');
    for (const token of ['', 'x'.repeat(64), 'nonsense', 42, `${first!.slice(0, 60)}AAAA`]) {
      const answer = await verify(new Client(backend.url), token);
      expect(answer.status, String(token)).toBe(400);
      expect(answer.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    // A new link replaces the first.
    expect((await client.post('/api/user/email-verification')).status).toBe(200);
    const [, second] = await linksTo('first@example.com', 2);
    expect(second).not.toBe(first);
    expect((await verify(client, first)).body.code).toBe('VERIFICATION_LINK_INVALID');
    // The address changes: its link goes to the new one, and the old address's link proves nothing.
    expect((await client.post('/api/user/account-info', { email: 'second@example.com' })).body).toMatchObject({
      email: 'second@example.com',
      emailVerified: false,
    });
    const [toNew] = await linksTo('second@example.com');
    expect((await verify(client, second)).body.code).toBe('VERIFICATION_LINK_INVALID');
    expect((await verify(client, toNew)).status).toBe(200);
    expect((await client.get('/api/profile')).body).toMatchObject({ email: 'second@example.com', emailVerified: true });
    // Changing only the phone number keeps the proof.
    await client.post('/api/user/account-info', { email: 'second@example.com', phoneNumber: '555-0100' });
    expect((await client.get('/api/profile')).body.emailVerified).toBe(true);
  });

  it('refuses a link past its 48 hours', async () => {
    const { client, id } = await backend.signUp('late', { email: 'late@example.com' });
    await linksTo('late@example.com');
    // A link made 49 hours ago, as the clock would have it.
    const secret = newVerificationSecret(id);
    await handleCommand(
      backend.service('identity').context.store,
      userStream(id),
      userDecider,
      { type: 'RequestEmailVerification', tokenHash: hashSecret(secret) },
      { userId: id, correlationId: id, now: new Date(Date.now() - 49 * 3_600_000) },
    );
    const answer = await verify(client, secret);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VERIFICATION_LINK_EXPIRED');
    expect((await client.get('/api/profile')).body.emailVerified).toBe(false);
  });

  it('asks for an address before sending a link to none', async () => {
    const { client } = await backend.signUp('none');
    const answer = await client.post('/api/user/email-verification');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('NO_EMAIL');
  });
});
