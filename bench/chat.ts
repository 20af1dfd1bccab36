/**
 * Chat benchmark: the service's own cost per message. `POST /api/chat` through the gateway
 * with the project's OpenAI stand-in answering at once, so what is measured is Shiplog's part: the
 * gateway hop, the plan check with billing, counting the message (an append to the day's stream), the
 * request to the model and the answer. One pro user (no daily cap), one message at a time, as a person
 * chats; target p99 ≤ 20 ms. The app runs as `npm start` runs it.
 */
import { cookiesFrom, createTestBusNamespace, createTestDatabase, freePort } from '@shiplog/testing';
import { startOpenAIStandIn } from '@shiplog/testing/openai';
import { load, signUp, startBenchApp, stop } from './app.ts';

const ADMIN_PASSWORD = 'bench-admin-password';

export async function runChat() {
  const db = await createTestDatabase('bench_chat');
  const ns = createTestBusNamespace('bench_chat');
  const model = await startOpenAIStandIn();
  model.respond = () => ({ content: 'A short answer.' });
  const port = await freePort();
  const app = await startBenchApp(db.url, ns.namespace, port, { ADMIN_PASSWORD, ...model.env });
  const url = `http://127.0.0.1:${port}`;
  try {
    const user = await signUp(url, `chatbench${Date.now().toString(36)}`);
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const pro = await fetch(`${url}/api/admin/users/${user.id}/subscription`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: cookiesFrom(login) },
      body: JSON.stringify({ subscriptionStatus: 'active' }),
    });
    if (pro.status !== 200) throw new Error(`making the user pro answered ${pro.status}`);
    const options = {
      url: `${url}/api/chat`,
      method: 'POST' as const,
      connections: 1,
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'How are my projects doing?',
        conversationHistory: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hello! How can I help with your projects?' },
        ],
      }),
    };
    await load({ ...options, duration: 3 });
    const requestsBefore = model.requests.length;
    const measured = await load({ ...options, duration: 10 });
    return { ...measured, modelRequests: model.requests.length - requestsBefore };
  } finally {
    await stop(app);
    await model.stop();
    await ns.drop();
    await db.drop();
  }
}
