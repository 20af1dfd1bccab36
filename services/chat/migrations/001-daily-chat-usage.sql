-- Each user's messages per UTC day (spec/account.md §3 "Chat usage, stored"): a projection of the
-- `chat-usage-<userId>-<date>` streams, rebuilt from them by `pnpm projections:rebuild`.
CREATE TABLE daily_chat_usage (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  date varchar(10) NOT NULL,
  messages_used integer NOT NULL DEFAULT 0,
  boost_used boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, date)
);
