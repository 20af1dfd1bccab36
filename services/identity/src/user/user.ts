import type { EventOf } from '@shiplog/events';
import {
  type ApiTokenScope,
  DEFAULT_API_TOKEN_DAYS,
  defaultNotificationSettings,
  type NotificationSettings,
} from '@shiplog/schemas';

/** A user account, folded from its `user-<id>` stream. */
export type UserEvent =
  | EventOf<'UserRegistered'>
  | EventOf<'PasswordSet'>
  | EventOf<'PasswordChanged'>
  | EventOf<'UserDeleted'>
  | EventOf<'UserLoggedIn'>
  | EventOf<'ProfileUpdated'>
  | EventOf<'AccountInfoUpdated'>
  | EventOf<'NotificationSettingsChanged'>
  | EventOf<'ApiTokenCreated'>
  | EventOf<'ApiTokenRevoked'>
  | EventOf<'WorkspaceApiTokenCreated'>
  | EventOf<'EmailVerificationRequested'>
  | EventOf<'EmailVerified'>;

/** The link mailed to prove an address: for which address, the SHA-256 of its secret, until when. */
export interface PendingVerification {
  email: string;
  tokenHash: string;
  expiresAt: string;
}

/** A personal API token: its name and the SHA-256 of its text (the text itself is shown once). */
export interface ApiToken {
  id: string;
  name: string;
  tokenHash: string;
  createdAt: string;
  /** When it stops working; null: never. */
  expiresAt: string | null;
  scope: ApiTokenScope;
  /** The one space it reaches (a workspace's id, or `personal`); null: every space. */
  workspaceId: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export type StoredProfile = EventOf<'ProfileUpdated'>['data']['profile'];

export type User =
  | { status: 'none' }
  | {
      status: 'registered';
      id: string;
      username: string;
      email: string | null;
      /** The owner opened a link mailed to `email` (and has not changed it since). */
      emailVerified: boolean;
      /** The last link mailed to the current address. */
      pendingVerification: PendingVerification | null;
      passwordHash: string | null;
      registeredAt: string;
      lastLoginAt: string | null;
      phoneNumber: string | null;
      profile: StoredProfile | null;
      notificationSettings: NotificationSettings;
      /** The tokens not revoked, oldest first. */
      apiTokens: ApiToken[];
    };

export const initialUser = (): User => ({ status: 'none' });

export function evolveUser(state: User, event: UserEvent): User {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'registered',
        id: event.data.userId,
        username: event.data.username,
        email: event.data.email,
        emailVerified: false,
        pendingVerification: null,
        passwordHash: null,
        registeredAt: event.data.registeredAt,
        lastLoginAt: null,
        phoneNumber: null,
        profile: null,
        notificationSettings: defaultNotificationSettings,
        apiTokens: [],
      };
    case 'PasswordSet':
      return state.status === 'registered' ? { ...state, passwordHash: event.data.passwordHash } : state;
    case 'PasswordChanged':
      return state;
    // The account's other events are shredded by then; nothing of it is left.
    case 'UserDeleted':
      return { status: 'none' };
    case 'UserLoggedIn':
      return state.status === 'registered' ? { ...state, lastLoginAt: event.data.at } : state;
    case 'ProfileUpdated':
      return state.status === 'registered'
        ? { ...state, profile: event.data.profile, phoneNumber: event.data.profile.phoneNumber }
        : state;
    case 'AccountInfoUpdated': {
      if (state.status !== 'registered') return state;
      // A new address is unproven, and a link mailed to the old one proves nothing of it.
      const sameEmail = sameAddress(state.email, event.data.email);
      return {
        ...state,
        email: event.data.email,
        phoneNumber: event.data.phoneNumber,
        emailVerified: sameEmail && state.emailVerified,
        pendingVerification: sameEmail ? state.pendingVerification : null,
      };
    }
    case 'EmailVerificationRequested':
      return state.status === 'registered'
        ? {
            ...state,
            pendingVerification: {
              email: event.data.email,
              tokenHash: event.data.tokenHash,
              expiresAt: event.data.expiresAt,
            },
          }
        : state;
    case 'EmailVerified':
      return state.status === 'registered'
        ? // The link is kept: opened again, it says the address is proven rather than that it is invalid.
          { ...state, emailVerified: sameAddress(state.email, event.data.email) }
        : state;
    case 'NotificationSettingsChanged':
      return state.status === 'registered' ? { ...state, notificationSettings: event.data.settings } : state;
    case 'ApiTokenCreated':
      return state.status === 'registered'
        ? {
            ...state,
            apiTokens: [
              ...state.apiTokens,
              {
                id: event.data.tokenId,
                name: event.data.name,
                tokenHash: event.data.tokenHash,
                createdAt: event.data.at,
                expiresAt:
                  event.data.expiresAt !== undefined
                    ? event.data.expiresAt
                    : new Date(Date.parse(event.data.at) + DEFAULT_API_TOKEN_DAYS * DAY_MS).toISOString(),
                scope: event.data.scope ?? 'write',
                workspaceId: event.data.space ?? null,
              },
            ],
          }
        : state;
    case 'ApiTokenRevoked':
      return state.status === 'registered'
        ? { ...state, apiTokens: state.apiTokens.filter((token) => token.id !== event.data.tokenId) }
        : state;
    // Told the workspace of it: the token itself came with ApiTokenCreated.
    case 'WorkspaceApiTokenCreated':
      return state;
  }
}

/** Two spellings of one address: the domain part is case-blind, and people type the rest as they like. */
export const sameAddress = (a: string | null, b: string | null) =>
  a !== null && b !== null ? a.trim().toLowerCase() === b.trim().toLowerCase() : a === b;

export const userStream = (userId: string) => `user-${userId}`;
