import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '@shiplog/errors';
import { handleCommand, reportPosition, type ServiceContext, serveRoutes } from '@shiplog/service-kit';
import type { IdentityEnv } from '../env.ts';
import type { Accounts, RegisteredUser } from './accounts.ts';
import { userDecider } from './decide.ts';
import type { emailVerificationApi } from './email-verification.ts';
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { userRoutes } from './routes.ts';
import { sameAddress, userStream } from './user.ts';

/** How long after the request every failed sign-in is answered (longer than the slowest lookup and check). */
const FAILED_LOGIN_ANSWER_MS = 250;

/** The account's own routes: registration, sign-in's check, profile, account information, password, settings, deletion. */
export function userApi(
  context: ServiceContext<IdentityEnv>,
  accounts: Accounts,
  emails: Pick<ReturnType<typeof emailVerificationApi>, 'mailLink'>,
) {
  const { store } = context;
  const {
    isAdminName,
    toPublic,
    commandContext,
    currentUser,
    changeCurrentUser,
    findByUsername,
    register,
    deleteUser,
  } = accounts;

  return serveRoutes(userRoutes, {
    'POST /register': async (req, res, parsed) => {
      const input = parsed.body;
      if (isCommonPassword(input.password)) throw new ValidationError({ password: [COMMON_PASSWORD_MESSAGE] });
      // Nobody registers the admin's name, whether or not that account exists yet.
      if (isAdminName(input.username)) throw new ConflictError('Username already exists', 'USERNAME_TAKEN');
      const result = await register(
        { username: input.username, email: input.email || null, password: input.password },
        commandContext(req),
      );
      if (result.state.status !== 'registered') throw new Error('registration produced no account');
      if (result.position) reportPosition(res, 'identity', result.position);
      // The link's event stays in this service: its position is not one any read waits for.
      if (result.state.email) await emails.mailLink(result.state.id, commandContext(req), false);
      res.status(201).json(toPublic(result.state));
    },

    'POST /login': async (req, res, parsed) => {
      const input = parsed.body;
      const started = Date.now();
      const user = await findByUsername(input.username);
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid) {
        // A known name costs a little more to look up than an unknown one: every failure answers at the
        // same moment after the request, so the time tells nothing about which it was (ASVS 2.2.1).
        await sleep(Math.max(0, FAILED_LOGIN_ANSWER_MS - (Date.now() - started)));
        throw new UnauthorizedError('Invalid username or password', 'INVALID_CREDENTIALS');
      }
      const result = await handleCommand(
        store,
        userStream(user.id),
        userDecider,
        { type: 'RecordLogin' },
        { ...commandContext(req), userId: user.id, now: context.now() },
      );
      if (result.position) reportPosition(res, 'identity', result.position);
      res.json(toPublic(user));
    },

    // Profile (spec/account.md): the stored one, or a first one made of the username.
    // A public profile, for the gateway's /u/{username} page: only what its owner shows on it,
    // and only while the profile is public. A private one and a missing one answer the same 404.
    'GET /public/profiles/:username': async (req, res) => {
      const username = req.params.username ?? '';
      const user = username.length <= 50 ? await findByUsername(username) : null;
      const profile = user ? profileView(user) : null;
      if (profile?.projectVisibility !== 'public') throw new NotFoundError('Profile not found', 'PROFILE_NOT_FOUND');
      const { userId, displayName, bio, github, twitter, linkedin, website } = profile;
      res.json({ userId, username: profile.username, displayName, bio, github, twitter, linkedin, website });
    },

    'GET /profile': async (req, res) => {
      res.json(profileView(await currentUser(req)));
    },

    'POST /profile': async (req, res, parsed) => {
      const profile = parsed.body;
      res.json(profileView(await changeCurrentUser(req, res, { type: 'UpdateProfile', profile })));
    },

    // Where account mail (and a password reset's link) goes: only with the password typed lately.
    'POST /user/account-info': async (req, res, parsed) => {
      const { email, phoneNumber } = parsed.body;
      const before = await currentUser(req);
      const user = await changeCurrentUser(req, res, { type: 'UpdateAccountInfo', email, phoneNumber });
      // A new address gets a link to prove it.
      if (user.email && !user.emailVerified && !sameAddress(before.email, user.email))
        await emails.mailLink(user.id, commandContext(req), false);
      res.json({ email: user.email, phoneNumber: user.phoneNumber, emailVerified: user.emailVerified });
    },

    'POST /user/change-password': async (req, res, parsed) => {
      const { currentPassword, newPassword } = parsed.body;
      const user = await currentUser(req);
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw new ValidationError({ currentPassword: ['Current password is incorrect'] });
      }
      if (isCommonPassword(newPassword)) throw new ValidationError({ newPassword: [COMMON_PASSWORD_MESSAGE] });
      await changeCurrentUser(req, res, { type: 'SetPassword', passwordHash: await hashPassword(newPassword) });
      // Its tokens are revoked with it (decide.ts): their last uses go too.
      await context.pool.query('DELETE FROM identity.api_token_usage WHERE user_id = $1', [user.id]);
      res.json({ message: 'Password changed' });
    },

    // The signed-in user's password, asked again before a sensitive change (the gateway's /api/reauth).
    'POST /user/verify-password': async (req, res, parsed) => {
      const { password } = parsed.body;
      const user = await currentUser(req);
      if (!(await verifyPassword(user.passwordHash, password)))
        throw new ValidationError({ password: ['Password is incorrect'] });
      res.json({ message: 'Password confirmed' });
    },

    'GET /notifications/settings': async (req, res) => {
      res.json((await currentUser(req)).notificationSettings);
    },

    'POST /notifications/settings': async (req, res, parsed) => {
      const settings = parsed.body;
      res.json(
        (await changeCurrentUser(req, res, { type: 'ChangeNotificationSettings', settings })).notificationSettings,
      );
    },

    'DELETE /user': async (req, res) => {
      const user = await currentUser(req);
      const position = await deleteUser(user, user.id, req);
      if (position) reportPosition(res, 'identity', position);
      res.status(204).end();
    },

    'GET /users/me': async (req, res) => {
      res.json(toPublic(await currentUser(req)));
    },
  });
}

function profileView(user: RegisteredUser) {
  const profile = user.profile ?? {
    displayName: user.username,
    bio: null,
    phoneNumber: user.phoneNumber,
    replitUsername: null,
    avatar: null,
    github: null,
    twitter: null,
    linkedin: null,
    website: null,
    projectVisibility: 'public' as const,
  };
  return {
    userId: user.id,
    username: user.username,
    email: user.email,
    ...profile,
    isReplitLinked: false,
    emailVerified: user.emailVerified,
  };
}
