import { ConflictError } from '@shiplog/errors';
import { describe, expect, it } from 'vitest';
import { type IntegrationCommand, IntegrationNotFoundError, integrationDecider } from './decide.ts';
import type { IntegrationEvent } from './integration.ts';

const userId = '0190a1b2-0000-7000-8000-000000000001';
const integrationId = '0190a1b2-0000-7000-8000-0000000000a1';
const projectId = '0190a1b2-0000-7000-8000-0000000000f1';
const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();

const configured: IntegrationEvent[] = [
  {
    type: 'IntegrationConfigured',
    data: { integrationId, userId, siteName: 'My Registrar', baseUrl: 'https://api.example.com', at },
  },
  { type: 'IntegrationKeySet', data: { integrationId, userId, sealedKey: 'v1.sealed' } },
];
const imported: IntegrationEvent = {
  type: 'DomainsImported',
  data: { integrationId, userId, domains: [{ domainId: '7', domainName: 'example.com', projectId }], at },
};

function given(events: IntegrationEvent[]) {
  const state = events.reduce(integrationDecider.evolve, integrationDecider.initialState());
  return { when: (command: IntegrationCommand) => integrationDecider.decide(command, state, now), state };
}

describe('integrations', () => {
  it('configures an integration with its sealed key, in two events, the key only in the unpublished one', () => {
    const events = given([]).when({
      type: 'ConfigureIntegration',
      userId,
      integrationId,
      siteName: 'My Registrar',
      baseUrl: 'https://api.example.com',
      sealedKey: 'v1.sealed',
    });
    expect(events).toEqual(configured);
  });

  it('refuses a second integration of the same site name, whatever its case, until the first is deleted', () => {
    const again: IntegrationCommand = {
      type: 'ConfigureIntegration',
      userId,
      integrationId: '0190a1b2-0000-7000-8000-0000000000a2',
      siteName: ' my registrar',
      baseUrl: 'https://other.example.com',
      sealedKey: 'v1.other',
    };
    expect(() => given(configured).when(again)).toThrow(ConflictError);
    const deleted: IntegrationEvent = { type: 'IntegrationDeleted', data: { integrationId, userId, at } };
    expect(given([...configured, deleted]).when(again)).toHaveLength(2);
  });

  it('records an import once per domain: a repeated domain adds nothing', () => {
    const { when, state } = given([...configured, imported]);
    expect(state.integrations.get(integrationId)?.imported.get('7')).toBe(projectId);
    // An import is a use of the integration.
    expect(state.integrations.get(integrationId)?.lastUsed).toBe(at);
    const second = { domainId: '8', domainName: 'example.org', projectId };
    expect(
      when({
        type: 'RecordImport',
        userId,
        integrationId,
        domains: [{ domainId: '7', domainName: 'example.com', projectId }, second, second],
      }),
    ).toEqual([{ type: 'DomainsImported', data: { integrationId, userId, domains: [second], at } }]);
    expect(when({ type: 'RecordImport', userId, integrationId, domains: imported.data.domains })).toEqual([]);
  });

  it('frees a domain when its project is deleted, counting the deletions; another project frees nothing', () => {
    const forget: IntegrationCommand = { type: 'ForgetImportedProject', userId, projectId };
    const released = given([...configured, imported]).when(forget);
    expect(released).toEqual([
      { type: 'ImportedProjectDeleted', data: { integrationId, userId, domainId: '7', projectId, at } },
    ]);
    const after = given([...configured, imported, ...released]);
    expect(after.state.integrations.get(integrationId)?.imported.has('7')).toBe(false);
    expect(after.state.integrations.get(integrationId)?.deletions.get('7')).toBe(1);
    expect(after.when(forget)).toEqual([]);
    expect(given([]).when(forget)).toEqual([]);
    expect(
      given([...configured, imported]).when({ ...forget, projectId: '0190a1b2-0000-7000-8000-0000000000f2' }),
    ).toEqual([]);
  });

  it('answers not found for an integration the stream does not hold, or no longer holds', () => {
    const deleted: IntegrationEvent = { type: 'IntegrationDeleted', data: { integrationId, userId, at } };
    for (const events of [[], [...configured, deleted]]) {
      expect(() => given(events).when({ type: 'RecordUse', userId, integrationId })).toThrow(IntegrationNotFoundError);
      expect(() => given(events).when({ type: 'DeleteIntegration', userId, integrationId })).toThrow(
        IntegrationNotFoundError,
      );
    }
  });

  it('keeps lastUsed from the latest use', () => {
    const used: IntegrationEvent = { type: 'IntegrationUsed', data: { integrationId, userId, at } };
    expect(given([...configured, used]).state.integrations.get(integrationId)?.lastUsed).toBe(at);
  });
});
