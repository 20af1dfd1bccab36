import { z } from 'zod';

/**
 * A resource id in a path: the UUID text the services accept (`isId` in @shiplog/events reads the
 * same). The web app parses its `$id` route params with it; anything else is a page not found.
 */
export const idSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
