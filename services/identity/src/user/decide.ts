import { AppError, ConflictError, NotFoundError } from '@shiplog/errors';
import type { ApiTokenScope, NotificationSettings, ProfileInput } from '@shiplog/schemas';
import type { Decider } from '@shiplog/service-kit';
import { sameDigest } from './api-token.ts';
import { evolveUser, initialUser, sameAddress, type User, type UserEvent } from './user.ts';

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; username: string; email: string | null; passwordHash: string }
  | { type: 'SetPassword'; passwordHash: string }
  | { type: 'DeleteUser'; deletedBy: string }
  | { type: 'RecordLogin' }
  | { type: 'UpdateProfile'; profile: ProfileInput }
  | { type: 'UpdateAccountInfo'; email: string | null; phoneNumber: string | null }
  | { type: 'ChangeNotificationSettings'; settings: NotificationSettings }
  | {
      type: 'CreateApiToken';
      tokenId: string;
      name: string;
      tokenHash: string;
      expiresInDays: number | null;
      scope: ApiTokenScope;
      workspaceId: string | null;
    }
  | { type: 'RevokeApiToken'; tokenId: string }
  | { type: 'RequestEmailVerification'; tokenHash: string }
  | { type: 'VerifyEmail'; tokenHash: string };

/** How long a link mailed to prove an address works. */
export const EMAIL_VERIFICATION_HOURS = 48;

/** How many tokens a user may hold at once: one per CI pipeline or machine is plenty. */
export const MAX_API_TOKENS = 20;

const userNotFound = () => new NotFoundError('User not found', 'USER_NOT_FOUND');

export function decideUser(command: UserCommand, state: User, now: Date): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status !== 'none') throw new ConflictError('Username already exists', 'USERNAME_TAKEN');
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: command.userId,
            username: command.username,
            email: command.email,
            registeredAt: now.toISOString(),
          },
        },
        { type: 'PasswordSet', data: { userId: command.userId, passwordHash: command.passwordHash } },
      ];
    case 'SetPassword':
      if (state.status !== 'registered') throw userNotFound();
      // A new password revokes every API token: one made by whoever knew the old password stops too.
      return [
        { type: 'PasswordSet', data: { userId: state.id, passwordHash: command.passwordHash } },
        { type: 'PasswordChanged', data: { userId: state.id, at: now.toISOString() } },
        ...state.apiTokens.map(
          (token): UserEvent => ({
            type: 'ApiTokenRevoked',
            data: { ...revokedOf(state, token.id), at: now.toISOString() },
          }),
        ),
      ];
    case 'DeleteUser':
      if (state.status !== 'registered') throw userNotFound();
      return [{ type: 'UserDeleted', data: { userId: state.id, deletedBy: command.deletedBy, at: now.toISOString() } }];
    case 'RecordLogin':
      if (state.status !== 'registered') throw userNotFound();
      return [{ type: 'UserLoggedIn', data: { userId: state.id, at: now.toISOString() } }];
    case 'UpdateProfile':
      if (state.status !== 'registered') throw userNotFound();
      return [{ type: 'ProfileUpdated', data: { userId: state.id, profile: command.profile, at: now.toISOString() } }];
    case 'UpdateAccountInfo':
      if (state.status !== 'registered') throw userNotFound();
      if (state.email === command.email && state.phoneNumber === command.phoneNumber) return [];
      return [
        {
          type: 'AccountInfoUpdated',
          data: { userId: state.id, email: command.email, phoneNumber: command.phoneNumber, at: now.toISOString() },
        },
      ];
    case 'ChangeNotificationSettings':
      if (state.status !== 'registered') throw userNotFound();
      return [
        {
          type: 'NotificationSettingsChanged',
          data: {
            userId: state.id,
            // The switches Settings shows are sent without the dashboard's own flag: it is kept.
            settings: {
              ...command.settings,
              ...(command.settings.gettingStartedHidden === undefined &&
              state.notificationSettings.gettingStartedHidden !== undefined
                ? { gettingStartedHidden: state.notificationSettings.gettingStartedHidden }
                : {}),
            },
            at: now.toISOString(),
          },
        },
      ];
    case 'CreateApiToken':
      if (state.status !== 'registered') throw userNotFound();
      if (state.apiTokens.length >= MAX_API_TOKENS)
        throw new AppError(
          400,
          'TOO_MANY_API_TOKENS',
          `You can have at most ${MAX_API_TOKENS} API tokens. Revoke one you no longer use first.`,
        );
      return [
        {
          type: 'ApiTokenCreated',
          data: {
            userId: state.id,
            tokenId: command.tokenId,
            name: command.name,
            tokenHash: command.tokenHash,
            at: now.toISOString(),
            expiresAt:
              command.expiresInDays === null
                ? null
                : new Date(now.getTime() + command.expiresInDays * 24 * 60 * 60 * 1000).toISOString(),
            scope: command.scope,
            space: command.workspaceId,
          },
        },
        // A token of one team workspace is that workspace's to know of (its audit log).
        ...(command.workspaceId !== null && command.workspaceId !== 'personal'
          ? [
              {
                type: 'WorkspaceApiTokenCreated' as const,
                data: {
                  userId: state.id,
                  tokenId: command.tokenId,
                  name: command.name,
                  scope: command.scope,
                  space: command.workspaceId,
                  at: now.toISOString(),
                },
              },
            ]
          : []),
      ];
    case 'RevokeApiToken':
      if (state.status !== 'registered') throw userNotFound();
      if (!state.apiTokens.some((token) => token.id === command.tokenId))
        throw new NotFoundError('API token not found', 'API_TOKEN_NOT_FOUND');
      return [{ type: 'ApiTokenRevoked', data: { ...revokedOf(state, command.tokenId), at: now.toISOString() } }];
    case 'RequestEmailVerification':
      if (state.status !== 'registered') throw userNotFound();
      if (!state.email) throw new AppError(400, 'NO_EMAIL', 'Add an email address first.');
      if (state.emailVerified)
        throw new AppError(400, 'EMAIL_ALREADY_VERIFIED', 'This email address is already verified.');
      return [
        {
          type: 'EmailVerificationRequested',
          data: {
            userId: state.id,
            email: state.email,
            tokenHash: command.tokenHash,
            expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_HOURS * 60 * 60 * 1000).toISOString(),
            at: now.toISOString(),
          },
        },
      ];
    case 'VerifyEmail': {
      if (state.status !== 'registered') throw invalidLink();
      const pending = state.pendingVerification;
      // Opened twice (a mail client's preview, a second tap): the address is proven, and that is the answer.
      if (!pending || !sameDigest(pending.tokenHash, command.tokenHash) || !sameAddress(pending.email, state.email))
        throw invalidLink();
      if (state.emailVerified) return [];
      if (Date.parse(pending.expiresAt) <= now.getTime())
        throw new AppError(400, 'VERIFICATION_LINK_EXPIRED', 'This link has expired. Send a new one from Settings.');
      return [{ type: 'EmailVerified', data: { userId: state.id, email: pending.email, at: now.toISOString() } }];
    }
  }
}

const invalidLink = () =>
  new AppError(
    400,
    'VERIFICATION_LINK_INVALID',
    'This link is not valid: it was replaced by a newer one, or the address changed. Send a new one from Settings.',
  );

/** A revoked token, named with its workspace when it was limited to one (its audit log records it). */
function revokedOf(state: Extract<User, { status: 'registered' }>, tokenId: string) {
  const token = state.apiTokens.find((t) => t.id === tokenId);
  const team = token && token.workspaceId !== null && token.workspaceId !== 'personal';
  return { userId: state.id, tokenId, ...(team ? { name: token.name, space: token.workspaceId! } : {}) };
}

export const userDecider: Decider<User, UserCommand, UserEvent> = {
  initialState: initialUser,
  evolve: evolveUser,
  decide: decideUser,
};
