import { waitUntil } from '@shiplog/testing';
import type { Client } from './backend.ts';

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
}

/**
 * A browser's EventSource on `GET /api/events` of the app at `url`, by hand: the messages as they
 * arrive (changes, resets, presences), and the last id seen.
 */
export async function openLiveStream(url: string, client: Client, lastEventId?: string, after?: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events${after ? `?after=${after}` : ''}`, {
    headers: {
      accept: 'text/event-stream',
      ...(client.cookie ? { cookie: client.cookie } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  let lastId: string | undefined;
  let ended = false;
  const reading = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = {};
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').trimStart();
            if (field === 'id') lastId = message.id = value;
            else if (field === 'event') message.event = value;
            else if (field === 'data') message.data = value;
          }
          if (message.event) messages.push(message);
        }
      }
    } catch {
      // Aborted.
    }
    ended = true;
  })();
  return {
    status: response.status,
    messages,
    changes: () => messages.filter((m) => m.event === 'change').map((m) => JSON.parse(m.data!)),
    lastId: () => lastId,
    ended: () => ended,
    /** Subscribed: the stream has said where it stands (its first id), so every later change reaches it. */
    async ready(timeoutMs = 3000) {
      await waitUntil(
        () => {
          if (ended) throw new Error('the stream ended before it said where it stands');
          return lastId !== undefined;
        },
        timeoutMs,
        'the stream to say where it stands',
      );
    },
    async waitFor(predicate: (change: { source: string; type: string }) => boolean, timeoutMs = 3000) {
      const found = () => messages.find((m) => m.event === 'change' && predicate(JSON.parse(m.data!)));
      await waitUntil(() => found() !== undefined, timeoutMs, 'the change').catch(() => {
        throw new Error(`no such change within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
      });
      return found()!;
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}
