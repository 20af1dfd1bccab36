const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A resource id: the UUID text the services accept. The web app checks its `$id` route params with it
 * (anything else is a page not found), and the services their path params (@shiplog/events).
 */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && idPattern.test(value);
}
