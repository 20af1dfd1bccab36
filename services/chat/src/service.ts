import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition, servedTogether } from '@shiplog/service-kit';
import { assistantApi } from './assistant/api.ts';
import { dailyUsageApi } from './daily-usage/api.ts';
import { type ChatEnv, chatEnv } from './env.ts';
import { dailyChatUsageProjection } from './read-models/daily-chat-usage/index.ts';

/**
 * chat: the AI assistant over the user's own projects, reminders and timeline, and each user's daily
 * message count and boost. Streams `chat-usage-<userId>-<date>`; conversations are never stored.
 */
export const chatService: ServiceDefinition<ChatEnv> = {
  name: 'chat',
  env: chatEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [dailyChatUsageProjection],
  forgetUser: deleteUserRows('chat.daily_chat_usage'),
  setup(context) {
    const usage = dailyUsageApi(context);
    const assistant = assistantApi(context, usage);
    // Last: its error handler answers both routes' errors in the chat's shape.
    return servedTogether(usage, assistant);
  },
};
