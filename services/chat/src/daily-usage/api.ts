import { currentSubscriptionStatus } from '@shiplog/contracts';
import { isSubscribed } from '@shiplog/schemas';
import {
  type Caller,
  callerOf,
  handleCommand,
  loadAggregate,
  reportPosition,
  requireUserId,
  type ServiceContext,
  serveRoutes,
} from '@shiplog/service-kit';
import type { Response } from 'express';
import type { ChatEnv } from '../env.ts';
import { usageDate, usageStream, usageView } from './daily-usage.ts';
import { type DailyUsageCommand, dailyUsageDecider } from './decide.ts';
import { dailyUsageRoutes } from './routes.ts';

/** Two sends racing for the last message: each is decided again from the stream, so one wins and one is refused. */
const RACE_RETRIES = 10;

/** `GET /chat/usage`, and the commands that count a day's messages, which the assistant's route runs too. */
export function dailyUsageApi(context: ServiceContext<ChatEnv>) {
  const { store, services, now } = context;

  async function run(res: Response, caller: Caller, command: DailyUsageCommand) {
    const result = await handleCommand(store, usageStream(command.userId, command.date), dailyUsageDecider, command, {
      userId: caller.userId,
      correlationId: caller.correlationId,
      retries: RACE_RETRIES,
      // A pro user's message counts whatever came before: the day's stream is not read to count it.
      appendOnly: command.type === 'CountMessage' && command.unlimited,
      now: now(),
    });
    // Once an answer is streaming its headers are gone: the final event carries the usage instead.
    if (result.position && !res.headersSent) reportPosition(res, 'chat', result.position);
    return result;
  }

  /** Pro is the subscription as billing holds it now: status active or paid (the Quick Update's rule). */
  const isPro = async (caller: Caller) => isSubscribed(await currentSubscriptionStatus(services, caller));

  return {
    ...serveRoutes(dailyUsageRoutes, {
      'GET /chat/usage': async (req, res) => {
        const userId = requireUserId(req);
        // Folded from today's stream, as the count decides: right at once after a streamed answer too,
        // whose last changes (a refund, a boost by tool) could not report a position in its headers.
        const [pro, { state }] = await Promise.all([
          isPro(callerOf(req)),
          loadAggregate(store, usageStream(userId, usageDate(now())), dailyUsageDecider),
        ]);
        res.json(usageView(state, pro));
      },
    }),
    run,
    isPro,
  };
}
