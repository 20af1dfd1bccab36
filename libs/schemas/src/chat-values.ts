/** The chat's limits, answers and the boost ask (spec/account.md §3, §8, §9), without zod. */

/** Free users' messages a day (spec/account.md §9); the day is the UTC calendar day. */
export const FREE_DAILY_MESSAGES = 3;
/** What the once-a-day boost adds. */
export const BOOST_MESSAGES = 9;
/** The most a message or a history entry may hold, and the most history entries a request may carry. */
export const CHAT_MESSAGE_MAX = 4000;
export const CHAT_HISTORY_MAX = 100;
/** Free users' requests carry only this many history messages to the model; pro users' carry all. */
export const FREE_HISTORY_MESSAGES = 4;

/**
 * `GET /api/chat/usage` (spec/account.md §3). For pro users, who have no cap, `messagesRemaining` and
 * `totalLimit` are null. `totalLimit` is today's cap: 3, or 12 once the boost is granted.
 */
export interface ChatUsage {
  messagesRemaining: number | null;
  boostAvailable: boolean;
  boostUsed: boolean;
  totalLimit: number | null;
}

/** `POST /api/chat`'s JSON answer (spec/account.md §3). */
export interface ChatResponse {
  message: string;
  boostGranted: boolean;
}

/** What a streamed answer's last event carries (`event: done`). */
export interface ChatStreamDone extends ChatResponse {
  usage: ChatUsage;
}

/** The chat's refusal at the daily cap (spec/account.md §8): the web app shows this code's own text. */
export const DAILY_LIMIT_EXCEEDED = 'DAILY_LIMIT_EXCEEDED';

const plural =
  /\b(more|extra|additional|bonus|another\s+\d+|\d+\s+more)\s+(chat\s+)?(messages?|chats?|questions?|credits?|prompts?)\b/;
const boost = /\b(daily\s+)?boost\b/;
const asking =
  /\b(can|could|may|might|give|grant|get|need|want|would\s+like|'d\s+like|i'd\s+love|please|pls|let\s+me|unlock|increase|raise|top\s+up|request|have)\b/;
const negated =
  /\b(don'?t|do\s+not|doesn'?t|does\s+not|no\s+longer|never|not|without)\s+(\w+\s+){0,2}(need|want|get|have|give|ask)/;
const countingQuestion = /^\s*(how\s+(many|much)|what\s+is\s+my|what's\s+my|when\s+do)\b/;
const forSomeoneElse =
  /\b(messages?|chats?)\s+(to|for)\s+(my|our|the|all|your|their|his|her)\s+(users?|customers?|clients?|team|friends?|subscribers?)\b/;

/**
 * Whether a chat message plainly asks for more messages today ("can I have more messages?", "give me
 * extra messages", "I'd like my daily boost"): the service grants the daily boost on it whatever the
 * model does, so the boost works with a model that never calls tools. Questions about the count, a
 * "no more messages", and messages meant for someone else's users are not asks.
 */
export function asksForMoreMessages(text: string): boolean {
  const message = text.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ');
  if (countingQuestion.test(message) || negated.test(message) || forSomeoneElse.test(message)) return false;
  return asking.test(message) && (plural.test(message) || boost.test(message));
}
