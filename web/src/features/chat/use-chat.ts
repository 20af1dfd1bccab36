import {
  asksForMoreMessages,
  CHAT_HISTORY_MAX,
  type ChatStreamDone,
  type ChatUsage,
  DAILY_LIMIT_EXCEEDED,
  FREE_HISTORY_MESSAGES,
} from '@shiplog/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, apiRequest, errorOf, isUnauthorized } from '../../lib/api';
import { notePositions, positionHeaders } from '../../lib/positions';
import { keys } from '../../lib/queries';
import { told } from '../../lib/told';

/** Today's chat allowance: remaining messages, the boost, the cap (`GET /api/chat/usage`). */
export const chatUsageQuery = queryOptions({
  queryKey: keys.chatUsage,
  queryFn: () => apiRequest<ChatUsage>('GET', '/api/chat/usage'),
});

/** A chat message as the page keeps it (spec/account.md §3: client only). */
export interface ChatMessage {
  id: string;
  content: string;
  role: 'user' | 'assistant';
  timestamp: string;
}

/** The conversation lives for the browser session and goes at sign-out (features/account/use-auth.ts clears it). */
export const CHAT_STORAGE_KEY = 'shiplog.chat';

function stored(): ChatMessage[] {
  try {
    const value = JSON.parse(sessionStorage.getItem(CHAT_STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? (value as ChatMessage[]) : [];
  } catch {
    return [];
  }
}

const message = (role: ChatMessage['role'], content: string): ChatMessage => ({
  id: crypto.randomUUID(),
  role,
  content,
  timestamp: new Date().toISOString(),
});

/** Why a send is refused before it leaves (spec/account.md §5, §8), or null when it may go. */
export function blockedSend(text: string, usage: ChatUsage | undefined): { title: string; description: string } | null {
  if (!usage || usage.messagesRemaining === null || usage.messagesRemaining > 0) return null;
  // A plain ask for the boost still goes: the server grants it before counting.
  if (usage.boostAvailable && asksForMoreMessages(text)) return null;
  return {
    title: 'Daily Limit Reached',
    description: usage.boostAvailable
      ? 'Try asking the AI for more messages to get a daily boost!'
      : 'Upgrade to Pro for unlimited messages and full conversation memory.',
  };
}

/**
 * The chat: the conversation, and sending a message with its reply streamed in as it is written
 * (server-sent events from `POST /api/chat`). Free users send the last 4 messages as history, pro
 * users all of them (the server keeps to the same rule).
 */
export function useChat(pro: boolean) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [messages, setMessages] = useState<ChatMessage[]>(stored);

  useEffect(() => {
    sessionStorage.setItem(CHAT_STORAGE_KEY, JSON.stringify(messages));
  }, [messages]);

  const appendToReply = useCallback((id: string, text: string) => {
    setMessages((all) => all.map((m) => (m.id === id ? { ...m, content: m.content + text } : m)));
  }, []);

  const send = useMutation({
    mutationFn: async (text: string) => {
      const history = messages
        .filter((m) => m.content !== '')
        .slice(pro ? -CHAT_HISTORY_MAX : -FREE_HISTORY_MESSAGES)
        .map(({ role, content }) => ({ role, content }));
      const question = message('user', text);
      setMessages((all) => [...all, question]);
      const reply = message('assistant', '');
      let started = false;
      // A message nobody answered is not left looking sent: it leaves the conversation (the page puts
      // its text back in the box).
      const unsent = () => {
        if (!started) setMessages((all) => all.filter((m) => m.id !== question.id));
      };
      const response = await fetch('/api/chat', {
        method: 'POST',
        credentials: 'include',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...positionHeaders() },
        body: JSON.stringify({ message: text, conversationHistory: history }),
      }).catch((error: unknown) => {
        unsent();
        throw error;
      });
      notePositions(response);
      if (!response.ok) {
        unsent();
        throw await errorOf(response);
      }
      let done: ChatStreamDone | null = null;
      for await (const event of serverSentEvents(response)) {
        if (event.event === 'delta') {
          if (!started) setMessages((all) => [...all, reply]);
          started = true;
          appendToReply(reply.id, (event.data as { text: string }).text);
        } else if (event.event === 'done') {
          done = event.data as ChatStreamDone;
        } else if (event.event === 'error') {
          const failure = event.data as { message: string; code: string; usage?: ChatUsage };
          if (failure.usage) queryClient.setQueryData(chatUsageQuery.queryKey, failure.usage);
          if (started) setMessages((all) => all.filter((m) => m.id !== reply.id));
          started = false;
          unsent();
          throw new ApiError(502, failure.message, failure);
        }
      }
      if (!done) throw new Error('The answer was cut off');
      if (!started) setMessages((all) => [...all, { ...reply, content: done.message }]);
      queryClient.setQueryData(chatUsageQuery.queryKey, done.usage);
      return done;
    },
    onError: async (error) => {
      if (isUnauthorized(error)) await navigate({ to: '/auth' });
      else await queryClient.invalidateQueries({ queryKey: chatUsageQuery.queryKey });
    },
    meta: told({
      success: (done: ChatStreamDone) =>
        done.boostGranted
          ? { title: 'Daily Boost Granted!', description: 'You now have 9 additional messages for today.' }
          : null,
      failure: (error) =>
        isUnauthorized(error)
          ? null
          : {
              title: 'Error',
              description:
                error instanceof ApiError && error.code === DAILY_LIMIT_EXCEEDED
                  ? 'Daily message limit reached. Upgrade to Pro for unlimited messages.'
                  : error instanceof ApiError
                    ? error.message.replace(/^\d+: /, '')
                    : 'Failed to send message',
            },
    }),
  });

  return { messages, send };
}

/** The events of a `text/event-stream` answer, as they arrive. */
async function* serverSentEvents(response: Response): AsyncGenerator<{ event: string; data: unknown }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) yield { event, data: JSON.parse(data) };
      end = buffer.indexOf('\n\n');
    }
  }
}
