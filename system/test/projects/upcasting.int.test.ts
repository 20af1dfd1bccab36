/**
 * Events stored by older code keep loading: a `DeploymentRecorded` of version 1 (before deploy
 * webhooks, without `status` and `source`), appended as that code appended it, is upcast by the
 * catalog's upcaster wherever it is read: by the project's aggregate when a later command loads it,
 * and by the activity timeline that projects it from the bus.
 */
import { newId } from '@shiplog/events';
import { projectStream } from '@shiplog/projects/project';
import { type Backend, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let backend: Backend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

describe('an event of an older version', () => {
  it('is read through its upcaster by the aggregate and by the timeline', async () => {
    const { client, id: userId } = await backend.signUp('upcast');
    const project = await client.post('/api/projects', { name: 'Old Deploys' });
    expect(project.status).toBe(201);
    const { store } = backend.service('projects').context;
    // As the first version of the projects service wrote it: no status, no source.
    await store.append(
      projectStream(project.body.id),
      [
        {
          id: newId(),
          type: 'DeploymentRecorded',
          data: {
            projectId: project.body.id,
            userId,
            name: 'Old Deploys',
            environment: 'production',
            version: '0.9.0',
            url: null,
            notes: 'before webhooks',
            method: null,
            duration: null,
            at: '2026-01-05T10:00:00.000Z',
          },
          metadata: { userId, correlationId: newId(), causationId: null, schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'stream_exists' },
    );

    // The timeline reads it as a successful deployment.
    const deployed = async () =>
      (
        (await client.get(`/api/projects/${project.body.id}/activities`)).body as {
          details: string;
          status: string;
          version: string;
        }[]
      ).filter((a) => a.version === '0.9.0');
    await expect
      .poll(deployed)
      .toEqual([expect.objectContaining({ details: 'Deployed to production: Old Deploys', status: 'success' })]);

    // The aggregate loads it with the new ones: a later deployment, from a webhook's platform too, is taken.
    const next = await client.post(`/api/projects/${project.body.id}/deployment`, { version: '1.0.0' });
    expect(next.status).toBe(201);
    const after = await client.get(`/api/projects/${project.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body.checklist.deployed).toBe(true);
  });
});
