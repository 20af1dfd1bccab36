import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The project's stand-in for an OpenAI-compatible server: `POST /v1/chat/completions` as the official
 * `openai` SDK calls it (Bearer key, JSON or server-sent-event chunks, tool calls, OpenAI's error
 * shape). What the "model" says is a script: by default a small deterministic model that calls the
 * tools a question needs and answers from their results; a test can replace it, fail it or hang it.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
}

/** One turn of the model: text, tool calls, an HTTP failure, or no answer at all. */
export type ModelTurn =
  | { content: string }
  | { toolCalls: { name: string; arguments?: Record<string, unknown> }[]; content?: string }
  | { fail: number }
  | { hang: true };

export interface OpenAIStandIn {
  url: string;
  /** `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL` for the chat service. */
  env: Record<string, string>;
  /** Every completion request received, in order. */
  requests: CompletionRequest[];
  /** The script: what the model answers to a request. Reset with `useDefaultModel`. */
  respond: (request: CompletionRequest) => ModelTurn;
  useDefaultModel(): void;
  /** Answers 400 to any request that offers tools, as a server whose model has no function calling. */
  refuseTools: boolean;
  /** Pause between streamed chunks, so a browser can be seen receiving them. */
  chunkDelayMs: number;
  stop(): Promise<void>;
}

export async function startOpenAIStandIn(options: { chunkDelayMs?: number } = {}): Promise<OpenAIStandIn> {
  const apiKey = `sk-test-${randomBytes(16).toString('hex')}`;
  const model = 'shiplog-stand-in';
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) fail(res, 500, error instanceof Error ? error.message : 'stand-in failure');
      else res.destroy();
    });
  });

  const standIn: OpenAIStandIn = {
    url: '',
    env: {},
    requests: [],
    respond: defaultModel,
    useDefaultModel() {
      standIn.respond = defaultModel;
    },
    refuseTools: false,
    chunkDelayMs: options.chunkDelayMs ?? 0,
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return fail(res, 404, 'Unknown endpoint');
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return fail(res, 401, 'Incorrect API key provided', 'invalid_api_key');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CompletionRequest;
    standIn.requests.push(request);
    if (standIn.refuseTools && request.tools?.length) {
      return fail(res, 400, 'tools are not supported by this model', 'unsupported_parameter');
    }
    const turn = standIn.respond(request);
    if ('hang' in turn) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('fail' in turn) return fail(res, turn.fail, `The stand-in failed with ${turn.fail}`, 'server_error');
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const toolCalls =
      'toolCalls' in turn
        ? turn.toolCalls.map((call, index) => ({
            index,
            id: `call_${randomBytes(6).toString('hex')}`,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          }))
        : [];
    const content = turn.content ?? (toolCalls.length ? null : '');
    const finish = toolCalls.length ? 'tool_calls' : 'stop';
    if (!request.stream) {
      const body = {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content,
              ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) } : {}),
            },
            finish_reason: finish,
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] })}\n\n`,
      );
    chunk({ role: 'assistant', content: '' });
    for (const piece of (content ?? '').match(/[\s\S]{1,12}/g) ?? []) {
      if (standIn.chunkDelayMs > 0) await sleep(standIn.chunkDelayMs);
      chunk({ content: piece });
    }
    for (const call of toolCalls) chunk({ tool_calls: [call] });
    chunk({}, finish);
    res.end('data: [DONE]\n\n');
  }

  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.env = { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: `${standIn.url}/v1`, OPENAI_MODEL: model };
  return standIn;
}

function fail(res: ServerResponse, status: number, message: string, code: string | null = null) {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code } }));
}

const offers = (request: CompletionRequest, name: string) =>
  request.tools?.some((t) => t.function.name === name) ?? false;

/**
 * A small deterministic model: it reads the user's projects, reminders or timeline through the tools
 * when the question names them, grants the boost when asked for more messages, and otherwise says
 * what it was asked.
 */
export function defaultModel(request: CompletionRequest): ModelTurn {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { content: fromToolResults(request.messages) };
  const question = (last?.content ?? '').toLowerCase();
  if (/\bmore messages\b/.test(question) && offers(request, 'grant_daily_boost')) {
    return { toolCalls: [{ name: 'grant_daily_boost' }] };
  }
  const wanted = [
    /\bprojects?\b/.test(question) && 'list_projects',
    /\breminders?\b|\bdue\b/.test(question) && 'list_reminders',
    /\bactivity\b|\brecent\b|\bdeploy/.test(question) && 'recent_activity',
  ].filter((name): name is string => Boolean(name) && offers(request, name as string));
  if (wanted.length > 0) return { toolCalls: wanted.map((name) => ({ name })) };
  return {
    content: `You asked: “${last?.content ?? ''}”.\n\n- I am the stand-in model.\n- I answer every question this way.`,
  };
}

function fromToolResults(messages: ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of messages.filter((m) => m.role === 'tool')) {
    const result = JSON.parse(message.content ?? '{}') as { data?: unknown; error?: string };
    if (result.error) {
      lines.push(`- (tool error: ${result.error})`);
      continue;
    }
    const data = result.data as Record<string, unknown> | Record<string, unknown>[];
    if (!Array.isArray(data)) {
      lines.push(data?.granted ? '- You now have 9 more messages today.' : '- No boost: it was already used today.');
      continue;
    }
    if (data.length === 0) lines.push('- (nothing)');
    for (const item of data) {
      const name = item.name ?? item.title ?? item.what;
      const facts = [item.status, item.checklist, item.project, item.dueDate ?? item.at].filter(Boolean).join(', ');
      lines.push(`- **${String(name)}**${facts ? ` — ${facts}` : ''}`);
    }
  }
  return `Here is what I found:\n\n${lines.join('\n')}`;
}
