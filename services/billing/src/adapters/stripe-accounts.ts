import type pg from 'pg';

/** A user's Stripe customer and the subscriptions ever made for it (see migrations/001-stripe-accounts.sql). */
export interface StripeAccount {
  userId: string;
  customerId: string;
  subscriptionIds: string[];
}

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * The link from a user to their Stripe ids, kept outside the user's shredded stream so that deleting
 * the account can still close it at Stripe. Ids only; written before the event that records them.
 */
export class StripeAccounts {
  readonly #db: Queryable;
  readonly #table: string;

  constructor(db: Queryable, schema: string) {
    this.#db = db;
    this.#table = `${schema}.stripe_accounts`;
  }

  /** Links the customer, and the subscription when given (kept once, whatever the order). */
  async link(userId: string, customerId: string, subscriptionId: string | null = null): Promise<void> {
    await this.#db.query(
      `INSERT INTO ${this.#table} AS a (user_id, customer_id, subscription_ids)
       VALUES ($1, $2, CASE WHEN $3::text IS NULL THEN '{}'::text[] ELSE ARRAY[$3::text] END)
       ON CONFLICT (user_id) DO UPDATE SET
         customer_id = EXCLUDED.customer_id,
         subscription_ids = CASE
           WHEN $3::text IS NULL OR $3::text = ANY(a.subscription_ids) THEN a.subscription_ids
           ELSE a.subscription_ids || $3::text END`,
      [userId, customerId, subscriptionId],
    );
  }

  async find(userId: string, db: Queryable = this.#db): Promise<StripeAccount | null> {
    const { rows } = await db.query<{ customer_id: string; subscription_ids: string[] }>(
      `SELECT customer_id, subscription_ids FROM ${this.#table} WHERE user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return row ? { userId, customerId: row.customer_id, subscriptionIds: row.subscription_ids } : null;
  }

  async remove(userId: string, db: Queryable = this.#db): Promise<void> {
    await db.query(`DELETE FROM ${this.#table} WHERE user_id = $1`, [userId]);
  }
}
