import {
  asksForMoreMessages,
  type ChatResponse,
  type ChatStreamDone,
  chatRequestSchema,
  FREE_HISTORY_MESSAGES,
  isSubscribed,
} from '@shiplog/schemas';
import {
  afterOf,
  type Caller,
  callerOf,
  currentSubscriptionStatus,
  errorResponse,
  handleCommand,
  loadAggregate,
  parseInput,
  reportPosition,
  requireUserId,
  type ServiceContext,
} from '@shiplog/service-kit';
import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import type { ChatEnv } from '../env.ts';
import { Assistant, conversation, notConfigured, systemPrompt } from './assistant.ts';
import { type DailyUsage, usageDate, usageStream, usageView } from './daily-usage.ts';
import { type DailyUsageCommand, dailyUsageDecider } from './decide.ts';
import { boostTool, userDataTools } from './tools.ts';

/** Two sends racing for the last message: each is decided again from the stream, so one wins and one is refused. */
const RACE_RETRIES = 10;

export function chatApi(context: ServiceContext<ChatEnv>) {
  const { store, services, config, logger } = context;
  const apiKey = config.OPENAI_API_KEY;
  const assistant = apiKey ? new Assistant({ ...config, OPENAI_API_KEY: apiKey }) : null;

  async function run(res: Response, caller: Caller, command: DailyUsageCommand) {
    const result = await handleCommand(store, usageStream(command.userId, command.date), dailyUsageDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      retries: RACE_RETRIES,
      // A pro user's message counts whatever came before: the day's stream is not read to count it.
      appendOnly: command.type === 'CountMessage' && command.unlimited,
    });
    // Once an answer is streaming its headers are gone: the final event carries the usage instead.
    if (result.position && !res.headersSent) reportPosition(res, 'chat', result.position);
    return result;
  }

  /** Pro is the subscription as billing holds it now: status active or paid (the Quick Update's rule). */
  const isPro = async (caller: Caller) => isSubscribed(await currentSubscriptionStatus(services, caller));

  function routes(router: Router) {
    router.get('/chat/usage', async (req, res) => {
      const userId = requireUserId(req);
      // Folded from today's stream, as the count decides: right at once after a streamed answer too,
      // whose last changes (a refund, a boost by tool) could not report a position in its headers.
      const [pro, { state }] = await Promise.all([
        isPro(callerOf(req)),
        loadAggregate(store, usageStream(userId, usageDate(new Date())), dailyUsageDecider),
      ]);
      res.json(usageView(state, pro));
    });

    router.post('/chat', async (req, res) => {
      const userId = requireUserId(req);
      if (!assistant) throw notConfigured();
      const input = parseInput(chatRequestSchema, req.body);
      const caller = callerOf(req);
      const now = new Date();
      const date = usageDate(now);
      const pro = await isPro(caller);
      let state: DailyUsage | undefined;
      let boostGranted = false;
      const grantBoost = async (via: 'request' | 'tool') => {
        if (pro || state?.boostUsed) return false;
        const granted = await run(res, caller, { type: 'GrantDailyBoost', userId, date, via });
        state = granted.state;
        // Nothing appended: today's boost was already used.
        boostGranted ||= granted.events.length > 0;
        return granted.events.length > 0;
      };

      // The boost works with any model: a plain request for more messages is recognised here, before
      // counting, so it also reaches a user who has just used their last message.
      if (!pro && asksForMoreMessages(input.message)) await grantBoost('request');
      state = (await run(res, caller, { type: 'CountMessage', userId, date, unlimited: pro })).state;

      const streaming = Boolean(req.headers.accept?.includes('text/event-stream'));
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      if (streaming) {
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
        });
      }
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

      let message: string;
      try {
        message = await assistant.reply({
          messages: conversation(
            systemPrompt({ today: date, boostOffered: !pro && !state.boostUsed }),
            input.conversationHistory,
            input.message,
            pro ? null : FREE_HISTORY_MESSAGES,
          ),
          tools: [
            ...userDataTools(services, caller, now, afterOf(req)),
            ...(!pro && !state.boostUsed ? [boostTool(() => grantBoost('tool'))] : []),
          ],
          ...(streaming ? { onText: (text: string) => send('delta', { text }) } : {}),
          signal: abort.signal,
        });
      } catch (error) {
        // The model did not answer: the message is given back.
        state = (await run(res, caller, { type: 'RefundMessage', userId, date })).state;
        if (!streaming) throw error;
        logger.warn({ err: error }, 'the model failed while streaming');
        const { body } = errorResponse(error, logger, req);
        send('error', { ...body, error: body.message, usage: usageView(state, pro) });
        res.end();
        return;
      }
      if (!streaming) {
        res.json({ message, boostGranted } satisfies ChatResponse);
        return;
      }
      send('done', { message, boostGranted, usage: usageView(state, pro) } satisfies ChatStreamDone);
      res.end();
    });

    // Chat errors carry `error` beside `message` (the same text), as the chat page reads them.
    router.use('/chat', ((error, req: Request, res, _next) => {
      const { status, body } = errorResponse(error, logger, { method: req.method, url: req.originalUrl });
      res.status(status).json({ ...body, error: body.message });
    }) satisfies ErrorRequestHandler);
  }

  return { routes };
}
