import {
  createProjectSchema,
  importedProjectSchema,
  recordDeploymentSchema,
  updateProjectSchema,
} from '@shiplog/schemas';
import { describe, expect, it } from 'vitest';
import { decideProject } from './decide.ts';
import { evolveProject, initialProject, type Project } from './project.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const at = now.toISOString();
const owner = '0193a1b2-0000-7000-8000-00000000000a';
const projectId = '0193a1b2-0000-7000-8000-00000000000c';

function created(input: unknown = { name: 'Shiplog' }): Project {
  const events = decideProject(
    { type: 'CreateProject', projectId, userId: owner, input: createProjectSchema.parse(input) },
    initialProject(),
    now,
  );
  return events.reduce(evolveProject, initialProject());
}

describe('project decide', () => {
  it('imports a project as it stood, with its own dates, once', () => {
    const input = importedProjectSchema.parse({
      id: 'from-the-file',
      name: 'Weather API',
      status: 'deployed',
      checklist: { deployed: true },
      createdAt: '2025-03-01T10:00:00+02:00',
      updatedAt: '2025-06-01T08:00:00.000Z',
    });
    const command = { type: 'ImportProject' as const, projectId, userId: owner, input };
    const events = decideProject(command, initialProject(), now);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      importedFrom: 'from-the-file',
      status: 'deployed',
      checklist: { deployed: true, databaseAdded: false, hasTests: false },
      createdAt: '2025-03-01T08:00:00.000Z',
      updatedAt: '2025-06-01T08:00:00.000Z',
    });
    const state = events.reduce(evolveProject, initialProject());
    expect(state).toMatchObject({
      lifecycle: 'active',
      createdAt: '2025-03-01T08:00:00.000Z',
      updatedAt: '2025-06-01T08:00:00.000Z',
    });
    // The same file again, or after the user deleted it: nothing.
    expect(decideProject(command, state, now)).toEqual([]);
    const deleted = decideProject({ type: 'DeleteProject', userId: owner }, state, now).reduce(evolveProject, state);
    expect(decideProject(command, deleted, now)).toEqual([]);
  });

  it('moves a project to a team and back to a personal space as it stands, each side told, once', () => {
    const team = '0193a1b2-0000-7000-8000-0000000000aa';
    const admin = '0193a1b2-0000-7000-8000-0000000000bb';
    const before = decideProject(
      { type: 'UpdateProject', userId: owner, input: updateProjectSchema.parse({ costEstimate: 500, deployed: true }) },
      created({ name: 'Weather API' }),
      now,
    ).reduce(evolveProject, created({ name: 'Weather API' }));
    const toTeam = decideProject({ type: 'MoveProject', userId: owner, to: team }, before, now);
    expect(toTeam.map((e) => e.type)).toEqual(['ProjectMovedOut', 'ProjectMovedIn']);
    // Out: sealed with the maker's key (their personal space); in: with the team's.
    expect(toTeam[0]!.data).toEqual({ projectId, userId: owner, name: 'Weather API', to: team, movedBy: owner, at });
    expect(toTeam[1]!.data).toMatchObject({
      projectId,
      userId: owner,
      workspaceId: team,
      from: null,
      costEstimate: 500,
    });
    const inTeam = toTeam.reduce(evolveProject, before);
    expect(inTeam).toMatchObject({ lifecycle: 'active', workspaceId: team, userId: owner, costEstimate: 500 });
    expect(inTeam).toMatchObject({ checklist: { deployed: true }, createdAt: at });
    // Sent again: it is there already.
    expect(decideProject({ type: 'MoveProject', userId: owner, to: team }, inTeam, now)).toEqual([]);

    // The events before the move may be shredded with the maker's key: the move in alone is the project.
    const alone = evolveProject(initialProject(), toTeam[1] as never);
    expect(alone).toEqual(inTeam);

    // An admin takes it to their personal space: theirs now.
    const toPersonal = decideProject({ type: 'MoveProject', userId: admin, to: null }, inTeam, now);
    expect(toPersonal[0]!.data).toMatchObject({ workspaceId: team, userId: owner, to: null, movedBy: admin });
    expect(toPersonal[1]!.data).toMatchObject({ userId: admin, from: team });
    expect(toPersonal[1]!.data).not.toHaveProperty('workspaceId');
    const personal = toPersonal.reduce(evolveProject, inTeam);
    expect(personal).toMatchObject({ workspaceId: null, userId: admin });
    expect(decideProject({ type: 'MoveProject', userId: admin, to: null }, personal, now)).toEqual([]);
  });

  it('creates with the spec defaults', () => {
    const [event] = decideProject(
      { type: 'CreateProject', projectId, userId: owner, input: createProjectSchema.parse({ name: ' Shiplog ' }) },
      initialProject(),
      now,
    );
    expect(event).toEqual({
      type: 'ProjectCreated',
      data: {
        projectId,
        userId: owner,
        name: 'Shiplog',
        description: null,
        status: 'planning',
        checklist: {
          databaseAdded: false,
          authenticationAdded: false,
          deployed: false,
          backedUp: false,
          hasTests: false,
        },
        costEstimate: null,
        replitId: null,
        isPublic: true,
        socialLinks: {},
        createdAt: at,
      },
    });
  });

  it('splits an update into field changes, a status change and a checklist toggle; no change, no event', () => {
    const state = created();
    const input = updateProjectSchema.parse({
      name: 'Shiplog 2',
      status: 'development',
      databaseAdded: true,
      description: '',
    });
    const events = decideProject({ type: 'UpdateProject', userId: owner, input }, state, now);
    expect(events.map((e) => e.type)).toEqual(['ProjectUpdated', 'ProjectStatusChanged', 'ChecklistUpdated']);
    expect(events[0]!.data).toMatchObject({ name: 'Shiplog 2', changes: { name: 'Shiplog 2' } });
    expect(events[2]!.data).toMatchObject({ changed: ['databaseAdded'], cause: 'toggle', name: 'Shiplog 2' });
    const after = events.reduce(evolveProject, state);
    expect(decideProject({ type: 'UpdateProject', userId: owner, input }, after, now)).toEqual([]);
  });

  // Whose project it is to change is the route's to decide, from its declared role (the ownership
  // matrix, system/test/gateway/ownership.int.test.ts, proves another user gets 404).
  it('answers 404 for a missing project and for a deleted one', () => {
    const state = created();
    expect(() => decideProject({ type: 'DeleteProject', userId: owner }, initialProject(), now)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    const deleted = decideProject({ type: 'DeleteProject', userId: owner }, state, now).reduce(evolveProject, state);
    expect(() => decideProject({ type: 'DeleteProject', userId: owner }, deleted, now)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });

  it('records its deploy webhook made, replaced and turned off, without changing the project', () => {
    const state = created({ name: 'Weather API' });
    const made = decideProject({ type: 'MakeDeployHook', userId: owner, replaced: true }, state, now);
    expect(made).toEqual([
      {
        type: 'DeployHookMade',
        data: expect.objectContaining({ name: 'Weather API', userId: owner, replaced: true, at: now.toISOString() }),
      },
    ]);
    expect(made.reduce(evolveProject, state)).toEqual(state);
    expect(decideProject({ type: 'TurnOffDeployHook', userId: owner }, state, now).map((e) => e.type)).toEqual([
      'DeployHookTurnedOff',
    ]);
    const deleted = decideProject({ type: 'DeleteProject', userId: owner }, state, now).reduce(evolveProject, state);
    expect(() => decideProject({ type: 'MakeDeployHook', userId: owner, replaced: false }, deleted, now)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });

  it('ticks deployed and backedUp for a quick update, once', () => {
    const state = created();
    const events = decideProject(
      { type: 'LogQuickUpdate', userId: owner, notes: 'Shipped', redeployed: true, backedUp: true, subscribed: true },
      state,
      now,
    );
    expect(events.map((e) => e.type)).toEqual(['ChecklistUpdated', 'QuickUpdateLogged']);
    expect(events[0]!.data).toMatchObject({ changed: ['deployed', 'backedUp'], cause: 'quick_update' });
    const after = events.reduce(evolveProject, state);
    expect(
      decideProject(
        { type: 'LogQuickUpdate', userId: owner, notes: 'Again', redeployed: true, backedUp: false, subscribed: true },
        after,
        now,
      ).map((e) => e.type),
    ).toEqual(['QuickUpdateLogged']);
  });

  // A stranger's 404 whatever their plan is the route's (system/test/gateway/plan-gates.int.test.ts).
  it('decides the project before the plan: a missing one is 404 whatever the plan, the owner without a plan 403', () => {
    const quickUpdate = (state: Project, subscribed: boolean) => () =>
      decideProject(
        { type: 'LogQuickUpdate', userId: owner, notes: 'Shipped', redeployed: false, backedUp: false, subscribed },
        state,
        now,
      );
    expect(quickUpdate(initialProject(), false)).toThrow(expect.objectContaining({ status: 404 }));
    expect(quickUpdate(initialProject(), true)).toThrow(expect.objectContaining({ status: 404 }));
    expect(quickUpdate(created(), false)).toThrow(
      expect.objectContaining({ status: 403, code: 'SUBSCRIPTION_REQUIRED' }),
    );
  });

  it("records a platform's deployment once, by its id; a failed one does not tick deployed", () => {
    const state = created();
    const deploy = (deploymentId: string, status: 'success' | 'failed') =>
      ({
        type: 'RecordDeployment',
        userId: owner,
        input: recordDeploymentSchema.parse({}),
        status,
        source: { platform: 'vercel', deploymentId },
      }) as const;
    const failed = decideProject(deploy('dpl_1', 'failed'), state, now);
    expect(failed.map((e) => e.type)).toEqual(['DeploymentRecorded']);
    expect(failed[0]!.data).toMatchObject({ status: 'failed', source: { platform: 'vercel', deploymentId: 'dpl_1' } });
    const afterFailed = failed.reduce(evolveProject, state);
    expect(decideProject(deploy('dpl_1', 'failed'), afterFailed, now)).toEqual([]);
    // Another platform's deployment with the same id is another deployment.
    expect(
      decideProject(
        { ...deploy('dpl_1', 'success'), source: { platform: 'generic', deploymentId: 'dpl_1' } },
        afterFailed,
        now,
      ),
    ).toHaveLength(2);
    const succeeded = decideProject(deploy('dpl_2', 'success'), afterFailed, now);
    expect(succeeded.map((e) => e.type)).toEqual(['ChecklistUpdated', 'DeploymentRecorded']);
    expect(decideProject(deploy('dpl_2', 'success'), succeeded.reduce(evolveProject, afterFailed), now)).toEqual([]);
  });
});
