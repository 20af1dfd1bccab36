import { createHash, randomBytes } from 'node:crypto';
import type { Batch } from '@shiplog/messaging';
import type { Request, Response } from 'express';
import type pg from 'pg';
import { z } from 'zod';

type Queryable = Pick<pg.Pool, 'query'>;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** What a link's secret looks like: 24 random bytes, base64url. Anything else is not looked up. */
const SECRET = /^[A-Za-z0-9_-]{32}$/;

/**
 * A secret link's table (the private calendar feed, a project's deploy webhook, its cron ping URL):
 * one link per owner (the `key` column), kept as the SHA-256 of its secret alone, so the link is shown
 * once, when made (decision 031). The table has `token_hash` and `created_at` beside the owner's
 * columns. The credential is a table and not an event; that a project's link was made or turned off
 * is its owner's event (`secretLinkHandlers`' `record`), which a team's audit log reads.
 */
export function secretLinks<Owner extends Record<string, string>>(table: string, key: keyof Owner & string) {
  return {
    /** The owner's column: one link each. */
    key,

    /** A new secret, for `replace`. */
    newSecret: () => randomBytes(24).toString('base64url'),

    /** Whether the owner has a link, and since when. */
    async state(db: Queryable, owner: string): Promise<{ active: boolean; createdAt: string | null }> {
      const { rows } = await db.query<{ created_at: Date }>(`SELECT created_at FROM ${table} WHERE ${key} = $1`, [
        owner,
      ]);
      return { active: rows.length > 0, createdAt: rows[0]?.created_at.toISOString() ?? null };
    },

    /** Keeps the secret's hash for the owner, replacing any other (the old link stops at once). */
    async replace(db: Queryable, owner: Owner, secret: string): Promise<string> {
      const columns = Object.keys(owner);
      const { rows } = await db.query<{ created_at: Date }>(
        `INSERT INTO ${table} (${columns.join(', ')}, token_hash)
         VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}, $${columns.length + 1})
         ON CONFLICT (${key}) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
         RETURNING created_at`,
        [...Object.values(owner), hash(secret)],
      );
      return rows[0]!.created_at.toISOString();
    },

    async remove(db: Queryable, owner: string): Promise<void> {
      await db.query(`DELETE FROM ${table} WHERE ${key} = $1`, [owner]);
    },

    /** The owner a secret stands for (its columns, by name), or null. */
    async find(db: Queryable, secret: string): Promise<Owner | null> {
      if (!SECRET.test(secret)) return null;
      const { rows } = await db.query(`SELECT * FROM ${table} WHERE token_hash = $1`, [hash(secret)]);
      if (!rows[0]) return null;
      const { token_hash: _, created_at: __, ...owner } = rows[0];
      return owner as Owner;
    },

    /** The owner's link goes with it (a deleted project), in a projector's batch. */
    forget(batch: Pick<Batch, 'defer'>, owner: string): void {
      batch.defer(`DELETE FROM ${table} WHERE ${key} = $1`, [owner]);
    },
  };
}

/** What a secret link's GET answers (`state`): whether there is one, and since when. */
export const secretLinkState = z.object({ active: z.boolean(), createdAt: z.string().nullable() });
/** What its POST answers (`replace`): the URL, given out this once, and when it was made. */
export const madeSecretLink = z.object({ url: z.url(), createdAt: z.string() });

/**
 * The handlers of a secret link's three routes, for the owner that `ownerOf` finds (or refuses):
 * `state` (GET) says whether there is one and since when (with `details`), `replace` (POST) makes one,
 * replacing any other, and answers its URL, the only time it is given out, and `remove` (DELETE) turns
 * it off. Each route is declared where the link's owner declares its others (a `recentAuth` POST for a
 * link that acts on a project).
 */
/** What a link's route hands its owner lookup: the route's project, when it declares one. */
export interface LinkInput {
  project?: ((projectId: string) => Promise<{ id: string }>) | undefined;
}

export function secretLinkHandlers<Owner extends Record<string, string>>(
  links: ReturnType<typeof secretLinks<Owner>>,
  options: {
    db: Queryable;
    /** Whose link it is, from the request and its parsed input (`parsed.project` for a project's link). */
    ownerOf: (req: Request, input: LinkInput) => Promise<Owner>;
    urlOf: (secret: string) => string;
    /** What GET adds to the state (a ping URL's latest runs, say). */
    details?: (owner: Owner) => Promise<Record<string, unknown>>;
    /**
     * That a link was made (`replaced`: one before it stopped working) or turned off, appended as the
     * owner's event before the link's row changes, with who did it and from where: what a team's audit
     * log reads. The secret is never in it. Turning off a link there is none of records nothing.
     */
    record?: (req: Request, res: Response, owner: Owner, change: LinkChange) => Promise<void>;
  },
): Record<'state' | 'replace' | 'remove', (req: Request, res: Response, input?: LinkInput) => Promise<void>> {
  const { db, ownerOf, urlOf, details, record } = options;
  return {
    async state(req, res, input = {}) {
      const owner = await ownerOf(req, input);
      res.json({ ...(await links.state(db, owner[links.key]!)), ...(await details?.(owner)) });
    },
    async replace(req, res, input = {}) {
      const owner = await ownerOf(req, input);
      if (record) {
        const { active } = await links.state(db, owner[links.key]!);
        await record(req, res, owner, { made: true, replaced: active });
      }
      const secret = links.newSecret();
      const createdAt = await links.replace(db, owner, secret);
      res.status(201).json({ url: urlOf(secret), createdAt });
    },
    async remove(req, res, input = {}) {
      const owner = await ownerOf(req, input);
      if (record && (await links.state(db, owner[links.key]!)).active) await record(req, res, owner, { made: false });
      await links.remove(db, owner[links.key]!);
      res.status(204).end();
    },
  };
}

/** What `record` is told: a link made (replacing one, or not), or turned off. */
export type LinkChange = { made: true; replaced: boolean } | { made: false };
