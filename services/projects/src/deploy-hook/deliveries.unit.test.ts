import { toDomainEvent } from '@shiplog/events';
import { describe, expect, it } from 'vitest';
import { readDelivery } from './deliveries.ts';

const vercel = (type: string, payload: Record<string, unknown>) => ({ id: 'whk_1', type, createdAt: 1, payload });

describe('readDelivery', () => {
  it('reads a Vercel preview as staging, adds the scheme to its address, and cuts a long commit message', () => {
    const delivery = readDelivery(
      vercel('deployment.error', {
        deployment: { id: 'dpl_1', url: 'app-git-fix-ada.vercel.app', meta: { githubCommitMessage: 'x'.repeat(3000) } },
        target: null,
      }),
    );
    expect(delivery).toMatchObject({
      kind: 'deployment',
      status: 'failed',
      source: { platform: 'vercel', deploymentId: 'dpl_1' },
      input: { environment: 'staging', url: 'https://app-git-fix-ada.vercel.app/', version: null },
    });
    if (delivery.kind !== 'deployment') throw new Error('expected a deployment');
    expect(delivery.input.notes).toHaveLength(2000);
  });

  it('drops what a platform sends that cannot be kept, and refuses an id that cannot', () => {
    const delivery = readDelivery({
      id: 'deploy-1',
      site_id: 'site',
      state: 'ready',
      context: 'branch-deploy',
      title: 'half a pair \ud800',
      deploy_ssl_url: 'javascript:alert(1)',
    });
    expect(delivery).toMatchObject({
      kind: 'deployment',
      status: 'success',
      input: { environment: 'development', notes: null, url: null },
    });
    expect(() => readDelivery({ id: 'a\u0000b', site_id: 'site', state: 'ready' })).toThrow(
      expect.objectContaining({
        status: 400,
        fieldErrors: { deploymentId: ['Contains characters that cannot be stored'] },
      }),
    );
  });

  it('acknowledges the events it does not record, and reads anything else as the generic shape', () => {
    expect(readDelivery(vercel('deployment.canceled', { deployment: { id: 'dpl_2' } }))).toEqual({
      kind: 'ignored',
      platform: 'vercel',
      reason: "Vercel's deployment.canceled is not recorded",
    });
    expect(readDelivery({ deploymentId: ' 42 ', notes: '  ' })).toEqual({
      kind: 'deployment',
      source: { platform: 'generic', deploymentId: '42' },
      status: 'success',
      input: {
        environment: 'production',
        version: null,
        url: null,
        notes: null,
        deploymentDetails: { method: 'Webhook', duration: null },
      },
    });
    expect(() => readDelivery([])).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('DeploymentRecorded', () => {
  it('loads a version 1 event, stored before webhooks, as a successful deployment from no platform', () => {
    const v1 = {
      projectId: '0190a000-0000-7000-8000-000000000002',
      userId: '0190a000-0000-7000-8000-000000000001',
      name: 'Shiplog',
      environment: 'production',
      version: '1.0.0',
      url: null,
      notes: null,
      method: null,
      duration: null,
      at: '2026-11-20T10:00:00.000Z',
    };
    expect(toDomainEvent('DeploymentRecorded', v1, 1).data).toEqual({ ...v1, status: 'success', source: null });
  });
});
