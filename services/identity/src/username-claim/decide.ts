import { ConflictError } from '@shiplog/errors';
import type { Decider } from '@shiplog/service-kit';
import { evolveClaim, initialClaim, type UsernameClaim, type UsernameEvent } from './username-claim.ts';

/**
 * A username's claim (`username-<lower-case name>`): the first to claim a name has it, whatever its
 * case, until it is released. Claimed before the account is written (decision 005).
 */
export type UsernameCommand =
  | { type: 'ClaimUsername'; username: string; userId: string }
  | { type: 'ReleaseUsername'; userId: string };

export function decideClaim(command: UsernameCommand, state: UsernameClaim): UsernameEvent[] {
  switch (command.type) {
    case 'ClaimUsername':
      if (state.status === 'claimed') throw new ConflictError('Username already exists', 'USERNAME_TAKEN');
      return [{ type: 'UsernameClaimed', data: { username: command.username, userId: command.userId } }];
    case 'ReleaseUsername':
      if (state.status !== 'claimed' || state.userId !== command.userId) return [];
      return [{ type: 'UsernameReleased', data: { username: state.username, userId: command.userId } }];
  }
}

export const usernameDecider: Decider<UsernameClaim, UsernameCommand, UsernameEvent> = {
  initialState: initialClaim,
  evolve: evolveClaim,
  decide: decideClaim,
};
