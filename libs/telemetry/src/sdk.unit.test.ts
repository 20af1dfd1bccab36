import { describe, expect, it } from 'vitest';
import { outgoingUrl } from './sdk.ts';

describe('a client span’s URL', () => {
  const fcm = '/fcm/send/dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx';

  it('is the origin alone for a call that leaves Shiplog, whatever its path holds', () => {
    for (const headers of [{ 'content-type': 'application/json' }, ['ttl', '60'], 'ttl: 60\r\n'])
      expect(outgoingUrl('https://fcm.googleapis.com', `${fcm}?x=1`, headers)).toEqual({
        'url.full': 'https://fcm.googleapis.com',
        'url.path': '[redacted]',
        'url.query': '[redacted]',
      });
  });

  it('is the path as a template between Shiplog’s own processes', () => {
    const id = '0193a7c2-1111-7000-8000-000000000000';
    for (const headers of [
      { 'X-Shiplog-Internal-Token': 'signed' },
      ['x-shiplog-internal-token', 'signed'],
      'x-shiplog-internal-token: signed\r\n',
    ])
      expect(outgoingUrl('http://127.0.0.1:4102', `/projects/${id}`, headers)).toEqual({
        'url.full': 'http://127.0.0.1:4102/projects/:value',
        'url.path': '/projects/:value',
      });
  });
});
