-- Which Stripe customer and subscriptions belong to which user. Ids only, nothing personal, and kept
-- outside the user's `subscription-<userId>` stream on purpose: that stream is crypto-shredded when the
-- account is deleted, and this link is what lets billing then cancel the subscriptions and delete the
-- customer at Stripe. Written before the matching event is appended (a customer or subscription that
-- exists at Stripe is linked even if the append then fails); the row goes once Stripe has closed it.
CREATE TABLE stripe_accounts (
  user_id uuid PRIMARY KEY,
  customer_id text NOT NULL,
  subscription_ids text[] NOT NULL DEFAULT '{}',
  linked_at timestamptz NOT NULL DEFAULT now()
);
