import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiRequest } from './api';

/** A server that answers each request with the next of `answers` (the last one again when they run out). */
let answers: { status: number; body: unknown }[] = [];
let received: { method: string; key: string | undefined; body: string }[] = [];
let url: string;
const server = createServer(async (req: IncomingMessage, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  received.push({ method: req.method!, key: req.headers['idempotency-key'] as string | undefined, body });
  const { status, body: answer } = answers[Math.min(received.length, answers.length) - 1]!;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const catchingUp = {
  status: 503,
  body: { message: 'Your last change is still being applied: try again in a moment', code: 'CATCHING_UP' },
};

describe('a call the server answers CATCHING_UP', () => {
  it('is sent once more, the same, a moment later', async () => {
    answers = [catchingUp, { status: 201, body: { id: 'made' } }];
    received = [];
    const started = performance.now();
    const made = await apiRequest('POST', `${url}/api/reminders`, { title: 'Renew' }, { idempotencyKey: 'k1' });
    expect(made).toEqual({ id: 'made' });
    expect(received).toEqual([
      { method: 'POST', key: 'k1', body: '{"title":"Renew"}' },
      { method: 'POST', key: 'k1', body: '{"title":"Renew"}' },
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('says the server’s words when the second answer is the same', async () => {
    answers = [catchingUp];
    received = [];
    const failed = await apiRequest('POST', `${url}/api/reminders`, { title: 'Renew' }).catch((error) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).message).toBe(`503: ${catchingUp.body.message}`);
    expect((failed as ApiError).code).toBe('CATCHING_UP');
    expect(received).toHaveLength(2);
  });

  it('is not sent again for any other refusal', async () => {
    answers = [{ status: 503, body: { message: 'Service unavailable', code: 'UNAVAILABLE' } }];
    received = [];
    await expect(apiRequest('GET', `${url}/api/projects`)).rejects.toThrow('503: Service unavailable');
    expect(received).toHaveLength(1);
  });
});
