import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Backend, startBackend } from '@shiplog/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The GitHub Action (`actions/record`), run as a workflow step runs it: its `action.yml` read, each
 * `${{ inputs.* }}` of its step's environment filled in from the step's `with:` (or the input's
 * default), and its `run:` line run by bash in the action's directory, against a running Shiplog.
 */
const actionDir = join(import.meta.dirname, '..', '..', 'actions', 'record');
let backend: Backend;

type Action = {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: { uses?: string; shell?: string; env?: Record<string, string>; run?: string }[] };
};

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.stop();
});

async function action(): Promise<Action> {
  return parse(await readFile(join(actionDir, 'action.yml'), 'utf8')) as Action;
}

/** The action's step with `with` as the workflow gives it: its exit code and what it printed. */
async function step(inputs: Record<string, string>) {
  const { inputs: declared, runs } = await action();
  const run = runs.steps.find((s) => s.run)!;
  const value = (name: string) => inputs[name] ?? declared[name]?.default ?? '';
  const env = Object.fromEntries(
    Object.entries(run.env ?? {}).map(([key, expression]) => [
      key,
      expression.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => value(name)),
    ]),
  );
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      // As GitHub runs a step's `shell: bash`.
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run.run!],
      {
        // setup-node's Node first on the PATH, as the step before it leaves it.
        env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, GITHUB_ACTION_PATH: actionDir, ...env },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the Shiplog record action', () => {
  it('passes every input to its step, the token only through the environment, on Node 24', async () => {
    const { inputs, runs } = await action();
    expect(runs.using).toBe('composite');
    expect(runs.steps[0]).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': 24 } });
    const run = runs.steps.find((s) => s.run)!;
    const passed = Object.values(run.env ?? {}).join(' ');
    for (const name of Object.keys(inputs)) expect(passed, name).toContain(`inputs.${name} }}`);
    expect(run.run).not.toContain('inputs.');
    // The workflow expression itself, as action.yml writes it.
    expect(run.env?.SHIPLOG_TOKEN).toBe(['$', '{{ inputs.token }}'].join(''));
    expect(
      Object.entries(inputs)
        .filter(([, input]) => input.required)
        .map(([name]) => name),
    ).toEqual(['server', 'token', 'project']);
  });

  it('records a deployment and a release on the project, as a workflow step would, and fails clearly on bad input', async () => {
    const { client } = await backend.signUp('action');
    const project = (await client.post('/api/projects', { name: 'Weather API' })).body.id as string;
    const token = (await client.post('/api/tokens', { name: 'GitHub Actions' })).body.token as string;
    const common = { server: backend.url, token, project: 'Weather API' };

    const deployed = await step({ ...common, version: 'abc1234', url: 'https://weather.example.com' });
    expect(deployed.stderr).toBe('');
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toContain('::add-mask::');
    const released = await step({
      ...common,
      kind: 'release',
      version: '1.5.0',
      changes: 'Hourly forecast\n\nFaster start\n',
    });
    expect(released.code).toBe(0);
    const timeline = (await client.get(`/api/projects/${project}/activities`)).body as {
      eventType: string;
      version: string;
      metadata: { environment?: string; changes?: string[] };
    }[];
    expect(timeline.find((a) => a.eventType === 'deployment')).toMatchObject({
      version: 'abc1234',
      metadata: { environment: 'production' },
    });
    expect(timeline.find((a) => a.eventType === 'version_release')).toMatchObject({
      version: '1.5.0',
      metadata: { changes: ['Hourly forecast', 'Faster start'] },
    });

    const wrongKind = await step({ ...common, kind: 'party' });
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('::error title=Shiplog::kind must be deploy, release or backup');
    const badToken = await step({ ...common, token: 'sl_not-a-token' });
    expect(badToken.code).toBe(3);
    const noProject = await step({ ...common, project: 'Nowhere' });
    expect(noProject.code).toBe(1);
  });
});
