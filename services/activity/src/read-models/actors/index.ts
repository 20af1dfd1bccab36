import type { ProjectionDefinition } from '@shiplog/service-kit';

/**
 * The name of every user who may act on a timeline, from identity's events: the timeline shows who
 * did what by it (`actorOf`), as the account names itself now. A deleted account's row goes
 * (`forgetUser` and `UserDeleted`): what they did stays, by "a former member".
 */
export const actorsProjection: ProjectionDefinition = {
  name: 'actors',
  sources: ['identity'],
  tables: ['actors'],
  handlers: {
    UserRegistered: async ({ data }, _tx, { defer }) =>
      defer(
        `INSERT INTO activity.actors (user_id, username) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET username = EXCLUDED.username`,
        [data.userId, data.username],
      ),
    UserDeleted: async ({ data }, _tx, { defer }) =>
      defer('DELETE FROM activity.actors WHERE user_id = $1', [data.userId]),
  },
};

/**
 * A timeline row's actor as the API shows it, as a SQL expression over the row's columns (`row`: its
 * alias): null for a platform, a webhook or Shiplog itself; else the user, their name (null once the
 * account is deleted) and the API token's name when one made it.
 */
export const actorOf = (row: string) => `CASE WHEN ${row}.actor_id IS NULL THEN NULL ELSE json_build_object(
    'userId', ${row}.actor_id,
    'username', (SELECT username FROM activity.actors WHERE user_id = ${row}.actor_id),
    'token', ${row}.actor_token) END`;
