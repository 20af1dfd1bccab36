import { describe, expect, it } from 'vitest';
import { type WorkspaceCommand, workspaceDecider } from './decide.ts';
import type { Workspace, WorkspaceEvent } from './workspace.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const later = (days: number) => new Date(now.getTime() + days * 86_400_000);
const workspaceId = '0193a1b2-0000-7000-8000-0000000000a0';
const ada = '0193a1b2-0000-7000-8000-000000000001';
const bob = '0193a1b2-0000-7000-8000-000000000002';
const cyd = '0193a1b2-0000-7000-8000-000000000003';
const dee = '0193a1b2-0000-7000-8000-000000000004';
const invite1 = '0193a1b2-0000-7000-8000-0000000000b1';
const invite2 = '0193a1b2-0000-7000-8000-0000000000b2';
const expiresAt = later(7).toISOString();

const { decide, evolve, initialState } = workspaceDecider;

/** Runs commands in order from a new stream; returns the state and the last command's events. */
function run(...commands: [WorkspaceCommand, Date?][]): { state: Workspace; events: WorkspaceEvent[] } {
  let state = initialState();
  let events: WorkspaceEvent[] = [];
  for (const [command, at] of commands) {
    events = decide(command, state, at ?? now);
    state = events.reduce(evolve, state);
  }
  return { state, events };
}

const create: [WorkspaceCommand] = [{ type: 'CreateWorkspace', workspaceId, name: 'Acme', ownerId: ada }];
const invite = (
  userId: string,
  role: 'admin' | 'member' | 'viewer',
  inviteId = invite1,
  by = ada,
): [WorkspaceCommand] => [{ type: 'SendInvite', inviteId, role, to: { userId }, by, expiresAt, maxMembers: 10 }];
const accept = (userId: string, inviteId = invite1): [WorkspaceCommand] => [
  { type: 'AcceptInvite', inviteId, invited: { userId, provenEmailHash: null }, maxMembers: 10 },
];
/** Acme with Ada (owner), Bob (admin), Cyd (viewer). */
const team: [WorkspaceCommand][] = [
  create,
  invite(bob, 'admin'),
  accept(bob),
  invite(cyd, 'viewer', invite2),
  accept(cyd, invite2),
];

const roles = (state: Workspace) =>
  state.status === 'active' ? Object.fromEntries(Object.entries(state.members).map(([id, m]) => [id, m.role])) : null;

describe('a workspace', () => {
  it('is created with its creator as its owner, once', () => {
    const { state } = run(create);
    expect(roles(state)).toEqual({ [ada]: 'owner' });
    expect(decide(create[0], state, now)).toEqual([]);
  });

  it('gains a member who accepts an invite by username, with the invite’s role', () => {
    expect(roles(run(...team).state)).toEqual({ [ada]: 'owner', [bob]: 'admin', [cyd]: 'viewer' });
  });

  it('lets a viewer or member invite nobody, and a non-member learn nothing (404)', () => {
    expect(() => run(...team, invite(dee, 'member', invite1, cyd))).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => run(...team, invite(cyd, 'member', invite1, dee))).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => run(...team, [{ type: 'RenameWorkspace', name: 'Mine', by: dee }])).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_NOT_FOUND' }),
    );
  });

  it('refuses an invite past its member limit, pending invites counted', () => {
    const full: [WorkspaceCommand] = [
      { type: 'SendInvite', inviteId: invite2, role: 'member', to: { userId: cyd }, by: ada, expiresAt, maxMembers: 2 },
    ];
    expect(() => run(create, invite(bob, 'member'), full)).toThrow(expect.objectContaining({ code: 'WORKSPACE_FULL' }));
  });

  it('refuses a second invite to the same person while one waits', () => {
    expect(() => run(create, invite(bob, 'member'), invite(bob, 'viewer', invite2))).toThrow(
      expect.objectContaining({ code: 'INVITE_PENDING' }),
    );
  });

  it('is joined by an emailed invite only from an account that proved that address', () => {
    const byEmail: [WorkspaceCommand] = [
      {
        type: 'SendInvite',
        inviteId: invite1,
        role: 'member',
        to: { emailHash: 'hash-of-bob', emailHint: 'b…@example.com', secretHash: 'secret-hash' },
        by: ada,
        expiresAt,
        maxMembers: 10,
      },
    ];
    expect(run(create, byEmail).events.map((e) => e.type)).toEqual(['WorkspaceInviteSent', 'WorkspaceInviteLinkMade']);
    const as = (provenEmailHash: string | null): [WorkspaceCommand] => [
      { type: 'AcceptInvite', inviteId: invite1, invited: { userId: bob, provenEmailHash }, maxMembers: 10 },
    ];
    expect(() => run(create, byEmail, as(null))).toThrow(expect.objectContaining({ code: 'INVITE_NOT_FOUND' }));
    expect(() => run(create, byEmail, as('hash-of-someone-else'))).toThrow(
      expect.objectContaining({ code: 'INVITE_NOT_FOUND' }),
    );
    expect(roles(run(create, byEmail, as('hash-of-bob')).state)).toEqual({ [ada]: 'owner', [bob]: 'member' });
  });

  it('does not take an invite that expired, was revoked, or was used', () => {
    expect(() => run(create, invite(bob, 'member'), [accept(bob)[0], later(8)])).toThrow(
      expect.objectContaining({ code: 'INVITE_EXPIRED' }),
    );
    expect(() =>
      run(create, invite(bob, 'member'), [{ type: 'RevokeInvite', inviteId: invite1, by: ada }], accept(bob)),
    ).toThrow(expect.objectContaining({ code: 'INVITE_NOT_FOUND' }));
    expect(() => run(create, invite(bob, 'member'), accept(bob), accept(bob))).toThrow(
      expect.objectContaining({ code: 'INVITE_NOT_FOUND' }),
    );
    expect(() => run(create, invite(bob, 'member'), accept(cyd))).toThrow(
      expect.objectContaining({ code: 'INVITE_NOT_FOUND' }),
    );
  });

  it('changes roles by an admin, owners only by an owner, and never leaves it without an owner', () => {
    const promote = (
      memberId: string,
      role: 'owner' | 'admin' | 'member' | 'viewer',
      by: string,
    ): [WorkspaceCommand] => [{ type: 'ChangeRole', memberId, role, by }];
    expect(roles(run(...team, promote(cyd, 'member', bob)).state)?.[cyd]).toBe('member');
    expect(() => run(...team, promote(cyd, 'owner', bob))).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => run(...team, promote(ada, 'admin', bob))).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => run(...team, promote(ada, 'admin', ada))).toThrow(expect.objectContaining({ code: 'LAST_OWNER' }));
    // Ownership passes: Bob is made owner, then Ada may step down.
    const passed = run(...team, promote(bob, 'owner', ada), promote(ada, 'admin', ada)).state;
    expect(roles(passed)).toEqual({ [ada]: 'admin', [bob]: 'owner', [cyd]: 'viewer' });
  });

  it('lets anyone leave but its last owner, and admins remove members but not owners', () => {
    const remove = (memberId: string, by: string): [WorkspaceCommand] => [{ type: 'RemoveMember', memberId, by }];
    expect(roles(run(...team, remove(cyd, cyd)).state)).toEqual({ [ada]: 'owner', [bob]: 'admin' });
    expect(roles(run(...team, remove(cyd, bob)).state)).toEqual({ [ada]: 'owner', [bob]: 'admin' });
    expect(() => run(...team, remove(bob, cyd))).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => run(...team, remove(ada, bob))).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => run(...team, remove(ada, ada))).toThrow(expect.objectContaining({ code: 'LAST_OWNER' }));
  });

  it('passes to its longest-standing admin when its only owner deletes their account, or goes when nobody else is in it', () => {
    const gone: [WorkspaceCommand] = [{ type: 'RemoveDeletedAccount', memberId: ada }];
    expect(roles(run(...team, gone).state)).toEqual({ [bob]: 'owner', [cyd]: 'viewer' });
    expect(run(create, gone).state.status).toBe('deleted');
    expect(() => run(create, invite(cyd, 'viewer'), accept(cyd), gone)).toThrow(
      expect.objectContaining({ code: 'LAST_OWNER' }),
    );
  });

  it('is deleted by an owner only, and then answers nothing', () => {
    expect(() => run(...team, [{ type: 'DeleteWorkspace', by: bob }])).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    const { state } = run(...team, [{ type: 'DeleteWorkspace', by: ada }]);
    expect(() => decide({ type: 'RenameWorkspace', name: 'Back', by: ada }, state, now)).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_NOT_FOUND' }),
    );
  });
});
