import { asksForMoreMessages, type ChatResponse, type ChatStreamDone, FREE_HISTORY_MESSAGES } from '@shiplog/schemas';
import {
  afterOf,
  type Caller,
  callerOf,
  errorResponse,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import type { DailyUsage } from '../daily-usage/daily-usage.ts';
import { usageDate, usageView } from '../daily-usage/daily-usage.ts';
import type { DailyUsageCommand } from '../daily-usage/decide.ts';
import type { ChatEnv } from '../env.ts';
import { Assistant, conversation, notConfigured, systemPrompt } from './assistant.ts';
import { assistantRoutes } from './routes.ts';
import { boostTool, userDataTools } from './tools.ts';

/**
 * `POST /chat`: the message is counted against the day's usage first (and given back when the model
 * fails), then the model answers, reading the user's own data through tools, streamed when asked.
 */
/** What the assistant needs of the day's count: its commands run, and whether the caller is pro (daily-usage's api.ts). */
export interface UsageCounter {
  run: (res: Response, caller: Caller, command: DailyUsageCommand) => Promise<{ state: DailyUsage; events: unknown[] }>;
  isPro: (caller: Caller) => Promise<boolean>;
}

export function assistantApi(context: ServiceContext<ChatEnv>, usage: UsageCounter) {
  const { services, config, logger, metrics } = context;
  const { run, isPro } = usage;
  const apiKey = config.OPENAI_API_KEY;
  const assistant = apiKey
    ? new Assistant({ ...config, OPENAI_API_KEY: apiKey }, (outcome) => metrics.outbound('model', outcome))
    : null;

  const served = serveRoutes(assistantRoutes, {
    'POST /chat': async (req, res, parsed) => {
      const userId = requireUserId(req);
      if (!assistant) throw notConfigured();
      const input = parsed.body;
      const caller = callerOf(req);
      const now = context.now();
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
    },
  });

  return {
    ...served,
    routes(router: Router) {
      served.routes(router);
      // Chat errors carry `error` beside `message` (the same text), as the chat page reads them.
      router.use('/chat', ((error, req: Request, res, _next) => {
        const { status, body } = errorResponse(error, logger, { method: req.method, url: req.originalUrl });
        res.status(status).json({ ...body, error: body.message });
      }) satisfies ErrorRequestHandler);
    },
  };
}
