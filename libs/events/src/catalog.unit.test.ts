import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '@shiplog/schemas';
import { describe, expect, it } from 'vitest';
import { billingEvents } from './catalog/billing.ts';
import { chatEvents } from './catalog/chat.ts';
import { identityEvents } from './catalog/identity.ts';
import { integrationEvents } from './catalog/integrations.ts';
import { monitorEvents } from './catalog/monitors.ts';
import { projectEvents } from './catalog/projects.ts';
import { reminderEvents } from './catalog/reminders.ts';
import * as stored from './catalog/values.ts';
import { catalog, dataSubjectOf } from './catalog.ts';

/** Each catalog list beside the API's list of the same name, which validates the commands. */
const lists: [name: keyof typeof stored, catalog: readonly string[], api: readonly string[]][] = [
  ['subscriptionStatuses', stored.subscriptionStatuses, api.subscriptionStatuses],
  ['commentPriorities', stored.commentPriorities, api.commentPriorities],
  ['projectStatuses', stored.projectStatuses, api.projectStatuses],
  ['checklistKeys', stored.checklistKeys, api.checklistKeys],
  ['deployHookPlatforms', stored.deployHookPlatforms, api.deployHookPlatforms],
  ['reminderTimes', stored.reminderTimes, api.reminderTimes],
  ['reminderFrequencies', stored.reminderFrequencies, api.reminderFrequencies],
  ['workspaceRoles', stored.workspaceRoles, api.workspaceRoles],
];

describe("the catalog's value lists", () => {
  it('are all compared with the API here', () => {
    expect(lists.map(([name]) => name).sort()).toEqual(Object.keys(stored).sort());
  });

  it.each(lists)('%s: every value the API accepts, the catalog accepts too', (_name, catalogValues, apiValues) => {
    expect(apiValues.length).toBeGreaterThan(0);
    expect(apiValues.filter((value) => !catalogValues.includes(value))).toEqual([]);
  });

  it('never drop a value stored events may hold', () => {
    const heldSinceTheStart: Record<keyof typeof stored, string[]> = {
      subscriptionStatuses: ['trialing', 'active', 'paid', 'past_due', 'unpaid', 'canceled', 'incomplete'],
      commentPriorities: ['normal', 'high', 'urgent'],
      projectStatuses: ['planning', 'development', 'deployed', 'blocked'],
      checklistKeys: ['databaseAdded', 'authenticationAdded', 'deployed', 'backedUp', 'hasTests'],
      deployHookPlatforms: ['generic', 'vercel', 'netlify'],
      reminderTimes: [
        'at_time',
        '5_minutes_before',
        '15_minutes_before',
        '30_minutes_before',
        '1_hour_before',
        '3_hours_before',
        '6_hours_before',
        '12_hours_before',
        '1_day_before',
        '2_days_before',
        '1_week_before',
      ],
      reminderFrequencies: ['once', 'daily', 'weekly', 'monthly'],
      workspaceRoles: ['owner', 'admin', 'member', 'viewer'],
    };
    for (const [name, catalogValues] of lists)
      expect(catalogValues, name).toEqual(expect.arrayContaining(heldSinceTheStart[name]));
  });

  it("are the ones the events' schemas validate with", () => {
    const { SubscriptionStatusChanged, AdminCommentPosted, AdminCommentEdited } = catalog;
    const { ProjectCreated, ProjectStatusChanged, ProjectImported, ChecklistUpdated, DeploymentRecorded } = catalog;
    const { ReminderAdded, ReminderUpdated, ReminderImported, ReminderNotificationSent } = catalog;
    const { WorkspaceInviteSent, WorkspaceMemberJoined, WorkspaceMemberRoleChanged } = catalog;
    const enums: [readonly string[], readonly string[]][] = [
      [SubscriptionStatusChanged.schema.shape.to.options, stored.subscriptionStatuses],
      [SubscriptionStatusChanged.schema.shape.from.unwrap().options, stored.subscriptionStatuses],
      [AdminCommentPosted.schema.shape.priority.options, stored.commentPriorities],
      [AdminCommentEdited.schema.shape.priority.options, stored.commentPriorities],
      [WorkspaceInviteSent.schema.shape.role.options, stored.workspaceRoles],
      [WorkspaceMemberJoined.schema.shape.role.options, stored.workspaceRoles],
      [WorkspaceMemberRoleChanged.schema.shape.role.options, stored.workspaceRoles],
      [ProjectCreated.schema.shape.status.options, stored.projectStatuses],
      [ProjectImported.schema.shape.status.options, stored.projectStatuses],
      [ProjectStatusChanged.schema.shape.from.options, stored.projectStatuses],
      [ProjectStatusChanged.schema.shape.to.options, stored.projectStatuses],
      [Object.keys(ProjectCreated.schema.shape.checklist.shape), stored.checklistKeys],
      [Object.keys(ProjectImported.schema.shape.checklist.shape), stored.checklistKeys],
      [Object.keys(ChecklistUpdated.schema.shape.checklist.shape), stored.checklistKeys],
      [ChecklistUpdated.schema.shape.changed.element.options, stored.checklistKeys],
      [DeploymentRecorded.schema.shape.source.unwrap().shape.platform.options, stored.deployHookPlatforms],
      [ReminderAdded.schema.shape.reminderTimes.element.options, stored.reminderTimes],
      [ReminderUpdated.schema.shape.changes.shape.reminderTimes.unwrap().element.options, stored.reminderTimes],
      [ReminderImported.schema.shape.reminderTimes.element.options, stored.reminderTimes],
      [ReminderNotificationSent.schema.shape.reminderTime.options, stored.reminderTimes],
      [ReminderAdded.schema.shape.frequency.options, stored.reminderFrequencies],
      [ReminderUpdated.schema.shape.changes.shape.frequency.unwrap().options, stored.reminderFrequencies],
      [ReminderImported.schema.shape.frequency.options, stored.reminderFrequencies],
    ];
    for (const [schemaValues, values] of enums) expect(schemaValues).toEqual(values);
  });
});

describe("the catalog's source", () => {
  const dir = import.meta.dirname;
  const files = [
    join(dir, 'catalog.ts'),
    ...readdirSync(join(dir, 'catalog'))
      .filter((name) => name.endsWith('.ts') && !name.includes('.test.'))
      .map((name) => join(dir, 'catalog', name)),
  ];

  it("does not import the API's schemas: a value the API drops still loads from the store", () => {
    expect(files.length).toBeGreaterThan(2);
    const importsApi = /(?:\bfrom|\bimport|\brequire\s*\()\s*['"]@shiplog\/schemas/;
    expect(files.filter((file) => importsApi.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});

describe("the owners' files", () => {
  const byOwner = {
    identity: identityEvents,
    billing: billingEvents,
    projects: projectEvents,
    reminders: reminderEvents,
    chat: chatEvents,
    integrations: integrationEvents,
    monitors: monitorEvents,
  };

  it('hold each event once, owned by the file it is in, and make the catalog, in their order', () => {
    const types = Object.values(byOwner).flatMap((events) => Object.keys(events));
    expect(new Set(types).size).toBe(types.length);
    expect(Object.keys(catalog)).toEqual(types);
    for (const [owner, events] of Object.entries(byOwner))
      for (const entry of Object.values(events)) expect(entry.owner).toBe(owner);
  });
});

describe('whose an event is', () => {
  const userId = '11111111-1111-4111-8111-111111111111';
  const workspaceId = '22222222-2222-4222-8222-222222222222';
  it('is its user’s, or its team workspace’s for a team project’s, and a token limited to a workspace stays its user’s', () => {
    expect(dataSubjectOf('ProjectDeleted', { projectId: userId, userId, at: '2026-01-01T00:00:00.000Z' })).toBe(userId);
    expect(
      dataSubjectOf('ProjectDeleted', { projectId: userId, userId, workspaceId, at: '2026-01-01T00:00:00.000Z' }),
    ).toBe(workspaceId);
    const token = { userId, tokenId: userId, name: 'CI', tokenHash: 'h', at: '2026-01-01T00:00:00.000Z' };
    expect(dataSubjectOf('ApiTokenCreated', { ...token, scope: 'read', space: workspaceId })).toBe(userId);
    expect(dataSubjectOf('WorkspaceCreated', { workspaceId, userId, name: 'Crew', at: token.at })).toBeNull();
  });
});
