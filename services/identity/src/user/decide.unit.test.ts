import { describe, expect, it } from 'vitest';
import { decideUser } from './decide.ts';
import { evolveUser, initialUser } from './user.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '0193a1b2-0000-7000-8000-000000000001';
const registeredUser = () =>
  decideUser(
    { type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' },
    initialUser(),
    now,
  ).reduce(evolveUser, initialUser());

describe('user decide', () => {
  it("keeps the dashboard's getting-started flag when Settings saves its switches", () => {
    const switches = { emailNotifications: false, projectUpdates: true, securityAlerts: true, marketingEmails: false };
    let state = registeredUser();
    for (const settings of [{ ...switches, gettingStartedHidden: true }, switches])
      state = decideUser({ type: 'ChangeNotificationSettings', settings }, state, now).reduce(evolveUser, state);
    expect(state.status === 'registered' && state.notificationSettings).toEqual({
      ...switches,
      gettingStartedHidden: true,
    });
  });

  const tokenId = (n: number) => `0193a1b2-0000-7000-8000-00000000010${n}`;

  it('makes API tokens that expire after the days chosen, or never', () => {
    let state = registeredUser();
    for (const [n, expiresInDays] of [
      [1, 30],
      [2, 365],
      [3, null],
    ] as const) {
      const events = decideUser(
        {
          type: 'CreateApiToken',
          tokenId: tokenId(n),
          name: `t${n}`,
          tokenHash: `h${n}`,
          expiresInDays,
          scope: 'write',
          workspaceId: null,
        },
        state,
        now,
      );
      state = events.reduce(evolveUser, state);
    }
    expect(state.status === 'registered' && state.apiTokens.map((t) => t.expiresAt)).toEqual([
      '2026-12-21T10:00:00.000Z',
      '2027-11-21T10:00:00.000Z',
      null,
    ]);
  });

  it('counts a token made before tokens had an expiry as made for 90 days', () => {
    const state = evolveUser(registeredUser(), {
      type: 'ApiTokenCreated',
      data: { userId, tokenId: tokenId(1), name: 'old', tokenHash: 'h', at: now.toISOString() },
    });
    expect(state.status === 'registered' && state.apiTokens[0]?.expiresAt).toBe('2027-02-19T10:00:00.000Z');
  });

  it('revokes every API token with a new password', () => {
    let state = registeredUser();
    for (const n of [1, 2])
      state = decideUser(
        {
          type: 'CreateApiToken',
          tokenId: tokenId(n),
          name: `t${n}`,
          tokenHash: `h${n}`,
          expiresInDays: 90,
          scope: 'write',
          workspaceId: null,
        },
        state,
        now,
      ).reduce(evolveUser, state);
    const events = decideUser({ type: 'SetPassword', passwordHash: 'h2' }, state, now);
    expect(events.map((e) => e.type)).toEqual(['PasswordSet', 'PasswordChanged', 'ApiTokenRevoked', 'ApiTokenRevoked']);
    expect(events.reduce(evolveUser, state)).toMatchObject({ apiTokens: [] });
  });

  it('registers a new user with a password', () => {
    const events = decideUser(
      { type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' },
      initialUser(),
      now,
    );
    expect(events).toEqual([
      { type: 'UserRegistered', data: { userId, username: 'ada', email: null, registeredAt: now.toISOString() } },
      { type: 'PasswordSet', data: { userId, passwordHash: 'h' } },
    ]);
    const state = events.reduce(evolveUser, initialUser());
    expect(state).toMatchObject({ status: 'registered', username: 'ada', passwordHash: 'h' });
  });

  it('refuses to register twice, and to log in or set a password for nobody', () => {
    const registered = decideUser(
      { type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' },
      initialUser(),
      now,
    ).reduce(evolveUser, initialUser());
    expect(() =>
      decideUser({ type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' }, registered, now),
    ).toThrow('Username already exists');
    expect(() => decideUser({ type: 'RecordLogin' }, initialUser(), now)).toThrow();
    expect(() => decideUser({ type: 'SetPassword', passwordHash: 'x' }, initialUser(), now)).toThrow();
    expect(decideUser({ type: 'RecordLogin' }, registered, now)).toEqual([
      { type: 'UserLoggedIn', data: { userId, at: now.toISOString() } },
    ]);
  });

  it('records a password change for the timeline, without the hash', () => {
    const registered = decideUser(
      { type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' },
      initialUser(),
      now,
    ).reduce(evolveUser, initialUser());
    const events = decideUser({ type: 'SetPassword', passwordHash: 'h2' }, registered, now);
    expect(events).toEqual([
      { type: 'PasswordSet', data: { userId, passwordHash: 'h2' } },
      { type: 'PasswordChanged', data: { userId, at: now.toISOString() } },
    ]);
    expect(events.reduce(evolveUser, registered)).toMatchObject({ passwordHash: 'h2' });
  });

  it('deletes an account once; afterwards there is nobody', () => {
    const registered = decideUser(
      { type: 'RegisterUser', userId, username: 'ada', email: null, passwordHash: 'h' },
      initialUser(),
      now,
    ).reduce(evolveUser, initialUser());
    const events = decideUser({ type: 'DeleteUser', deletedBy: userId }, registered, now);
    expect(events).toEqual([{ type: 'UserDeleted', data: { userId, deletedBy: userId, at: now.toISOString() } }]);
    const gone = events.reduce(evolveUser, registered);
    expect(gone).toEqual({ status: 'none' });
    expect(() => decideUser({ type: 'DeleteUser', deletedBy: userId }, gone, now)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });
});

describe('email verification', () => {
  const hash = (c: string) => c.repeat(64);
  const withEmail = (email = 'ada@example.com') =>
    decideUser({ type: 'UpdateAccountInfo', email, phoneNumber: null }, registeredUser(), now).reduce(
      evolveUser,
      registeredUser(),
    );
  const apply = (state: ReturnType<typeof withEmail>, command: Parameters<typeof decideUser>[0], at = now) =>
    decideUser(command, state, at).reduce(evolveUser, state);
  const verified = (state: ReturnType<typeof withEmail>) => state.status === 'registered' && state.emailVerified;
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return 'none';
  };

  it('proves the address with the last link mailed, within 48 hours, once', () => {
    let state = apply(withEmail(), { type: 'RequestEmailVerification', tokenHash: hash('a') });
    state = apply(state, { type: 'RequestEmailVerification', tokenHash: hash('b') });
    expect(code(() => apply(state, { type: 'VerifyEmail', tokenHash: hash('a') }))).toBe('VERIFICATION_LINK_INVALID');
    const late = new Date(now.getTime() + 48 * 3_600_000);
    expect(code(() => apply(state, { type: 'VerifyEmail', tokenHash: hash('b') }, late))).toBe(
      'VERIFICATION_LINK_EXPIRED',
    );
    state = apply(state, { type: 'VerifyEmail', tokenHash: hash('b') });
    expect(verified(state)).toBe(true);
    expect(decideUser({ type: 'VerifyEmail', tokenHash: hash('b') }, state, now)).toEqual([]);
    expect(code(() => apply(state, { type: 'RequestEmailVerification', tokenHash: hash('c') }))).toBe(
      'EMAIL_ALREADY_VERIFIED',
    );
  });

  it('forgets the proof and the link when the address changes, not when only its case or the phone does', () => {
    let state = apply(withEmail(), { type: 'RequestEmailVerification', tokenHash: hash('a') });
    state = apply(state, { type: 'VerifyEmail', tokenHash: hash('a') });
    state = apply(state, { type: 'UpdateAccountInfo', email: 'Ada@Example.com', phoneNumber: '555-0100' });
    expect(verified(state)).toBe(true);
    state = apply(state, { type: 'UpdateAccountInfo', email: 'someone@example.com', phoneNumber: null });
    expect(verified(state)).toBe(false);
    expect(code(() => apply(state, { type: 'VerifyEmail', tokenHash: hash('a') }))).toBe('VERIFICATION_LINK_INVALID');
  });

  it('sends no link to no address', () => {
    expect(code(() => apply(registeredUser(), { type: 'RequestEmailVerification', tokenHash: hash('a') }))).toBe(
      'NO_EMAIL',
    );
  });
});
