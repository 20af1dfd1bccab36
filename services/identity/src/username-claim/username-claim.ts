import type { EventOf } from '@shiplog/events';

/** A username's uniqueness claim, folded from its `username-<lower-case name>` stream. */
export type UsernameEvent = EventOf<'UsernameClaimed'> | EventOf<'UsernameReleased'>;
export type UsernameClaim = { status: 'free' } | { status: 'claimed'; userId: string; username: string };

export const initialClaim = (): UsernameClaim => ({ status: 'free' });

export function evolveClaim(_state: UsernameClaim, event: UsernameEvent): UsernameClaim {
  switch (event.type) {
    case 'UsernameClaimed':
      return { status: 'claimed', userId: event.data.userId, username: event.data.username };
    case 'UsernameReleased':
      return { status: 'free' };
  }
}

/** Usernames are unique without regard to case: 'Ada' and 'ada' are one name. */
export const usernameStream = (username: string) => `username-${username.toLowerCase()}`;
