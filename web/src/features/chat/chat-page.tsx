import { BOOST_MESSAGES, FREE_DAILY_MESSAGES, isSubscribed } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bot, Crown, Send, Sparkles } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { Components } from 'react-markdown';
import { cn } from '../../lib/class-names';
import { formatDate } from '../../lib/format';
import { lazyPart } from '../../lib/on-demand';
import { userQuery } from '../../lib/queries';
import { BackLink } from '../../ui/back-link';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Input } from '../../ui/input';
import { toast } from '../../ui/toast';
import { chatMarkdownComponents } from './chat-markdown';
import { blockedSend, type ChatMessage, chatUsageQuery, useChat } from './use-chat';

/** The Markdown renderer comes with the first reply shown, not with the page. */
const Markdown = lazyPart(() => import('react-markdown'));

/** /chat (spec/account.md §2): the assistant, the free tier's banner, the conversation. */
export function ChatPage() {
  const { data: user } = useQuery(userQuery);
  const { data: usage } = useQuery(chatUsageQuery);
  const pro = usage ? usage.messagesRemaining === null : isSubscribed(user?.subscriptionStatus);
  const { messages, send } = useChat(pro);
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  const components = useMemo(
    () => chatMarkdownComponents(messages.filter((m) => m.role === 'user').map((m) => m.content)),
    [messages],
  );
  const thinking = send.isPending && last?.role === 'user';
  const atLimit = !pro && usage?.messagesRemaining === 0;
  const blocked = blockedSend(text, usage);

  // The newest text in view: each streamed piece makes a new list.
  useEffect(() => {
    if (messages.length > 0 || thinking) end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, thinking]);

  function submit(event: FormEvent | KeyboardEvent) {
    event.preventDefault();
    const question = text.trim();
    if (!question) return;
    // Said even while the last answer is still coming: the limit is known as soon as it was counted.
    if (blocked) {
      toast({ ...blocked });
      return;
    }
    if (send.isPending) return;
    setText('');
    // Not sent: the text is back in the box, as typed, unless something new was typed meanwhile.
    send.mutate(question, { onError: () => setText((typed) => typed || question) });
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <div>
        <BackLink to="/">Back to Dashboard</BackLink>
      </div>
      {!pro && usage && usage.messagesRemaining !== null && (
        <Card className="border-primary/30 bg-primary/5" data-testid="chat-usage-banner">
          <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-center sm:justify-between">
            <div className="space-y-1 text-sm">
              <p className="font-medium">
                {usage.messagesRemaining} {usage.messagesRemaining === 1 ? 'message' : 'messages'} remaining today
              </p>
              <p className="text-muted-foreground">
                {usage.boostAvailable
                  ? `Tip: ask the AI for more messages to get a one-time daily boost of ${BOOST_MESSAGES} extra messages (${FREE_DAILY_MESSAGES + BOOST_MESSAGES} in total today).`
                  : `Today's boost is used: ${usage.totalLimit} messages in total today.`}
              </p>
            </div>
            <Button asChild size="sm">
              <Link to="/subscription">
                <Crown /> Upgrade to Pro
              </Link>
            </Button>
          </CardContent>
        </Card>
      )}
      <Card className="flex min-h-[60vh] flex-col">
        <CardHeader className="flex flex-row items-center justify-between space-y-0 border-b">
          <CardTitle className="flex items-center gap-2 text-lg">
            <Bot className="size-5" aria-hidden /> Chat Session
          </CardTitle>
          {pro && (
            <span className="inline-flex items-center gap-1 rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">
              <Sparkles className="size-3" aria-hidden /> Pro
            </span>
          )}
        </CardHeader>
        <CardContent className="flex flex-1 flex-col gap-4 pt-4">
          <div className="flex max-h-[60vh] flex-1 flex-col gap-3 overflow-y-auto" role="log" aria-label="Conversation">
            {messages.length === 0 && (
              <p className="m-auto text-center text-sm text-muted-foreground">
                Start a conversation with the AI assistant
              </p>
            )}
            {messages.map((m) => (
              <Bubble key={m.id} message={m} components={components} />
            ))}
            {thinking && (
              <p className="self-start rounded-lg bg-muted px-3 py-2 text-sm text-muted-foreground" aria-live="polite">
                Thinking...
              </p>
            )}
            <div ref={end} />
          </div>
          <form onSubmit={submit} className="flex gap-2">
            <Input
              value={text}
              onChange={(e) => setText(e.target.value)}
              // Enter sends even while the button is disabled, so a blocked send can say why.
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) submit(e);
              }}
              placeholder={atLimit ? 'Daily limit reached' : 'Ask about your projects, reminders or anything else...'}
              aria-label="Chat message"
              maxLength={4000}
              autoComplete="off"
            />
            <Button
              type="submit"
              aria-label="Send message"
              disabled={!text.trim() || send.isPending || (atLimit && blocked !== null)}
            >
              <Send />
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

function Bubble({ message, components }: { message: ChatMessage; components: Components }) {
  const mine = message.role === 'user';
  return (
    <div className={cn('flex max-w-[85%] flex-col gap-1', mine ? 'self-end items-end' : 'self-start')}>
      <div
        data-testid={mine ? 'user-message' : 'assistant-message'}
        className={cn('rounded-lg px-3 py-2 text-sm', mine ? 'bg-primary text-primary-foreground' : 'bg-muted')}
      >
        {mine ? (
          <p className="whitespace-pre-wrap break-words">{message.content}</p>
        ) : (
          // Markdown without raw HTML (react-markdown never renders HTML from the text), no images, and
          // links only to what the user wrote (chat-markdown.tsx).
          <div className="chat-markdown space-y-2 break-words [&_code]:rounded [&_code]:bg-background/60 [&_code]:px-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-background/60 [&_pre]:p-2 [&_ul]:list-disc [&_ul]:pl-5">
            <Suspense fallback={<p className="whitespace-pre-wrap">{message.content}</p>}>
              <Markdown components={components}>{message.content}</Markdown>
            </Suspense>
          </div>
        )}
      </div>
      <time className="text-xs text-muted-foreground" dateTime={message.timestamp}>
        {formatDate(message.timestamp, 'p')}
      </time>
    </div>
  );
}
