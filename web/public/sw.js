/**
 * Shiplog's service worker (decision 035): the installed app opens offline, and push reminders arrive.
 *
 * What it keeps, as it is fetched (nothing is downloaded ahead):
 * - the app's built files (`/assets/…`, named by their content, so never stale): from the cache first;
 * - the page itself, whatever path was asked: from the network first, the last copy when offline;
 * - the last answers to the current user, the dashboard, the projects and the reminders: from the
 *   network first, the last copy when offline. The app shows them read-only, with a banner, and sends
 *   nothing it could not (no write is queued). They are dropped at sign-out and when the server says
 *   the session is over.
 * Everything else (writes, other reads, the live stream) goes to the network untouched.
 */

const ASSETS = 'shiplog-assets';
const PAGE = 'shiplog-page';
const DATA = 'shiplog-data';
/** Built files kept at most: older ones (earlier releases') go first. */
const MAX_ASSETS = 200;
/** The reads kept for offline: exact paths, any query (the dashboard's GraphQL GET carries its variables). */
const DATA_PATHS = new Set(['/api/user', '/api/graphql', '/api/dashboard/charts', '/api/projects', '/api/reminders']);

self.addEventListener('install', (event) => {
  event.waitUntil(keepShell());
  self.skipWaiting();
});

/**
 * The page and the files it loads first (its scripts and styles, named in it), kept at install: the
 * visit that installed the worker loaded them before the worker could see them.
 */
async function keepShell() {
  const response = await fetch('/', { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await (await caches.open(PAGE)).put('/', response);
  const assets = await caches.open(ASSETS);
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  await Promise.all(files.map(async (file) => (await assets.match(file)) ?? assets.add(file)));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) event.respondWith(fromCacheFirst(request));
  else if (request.mode === 'navigate') event.respondWith(fromNetworkFirst(request, PAGE, '/'));
  else if (DATA_PATHS.has(url.pathname)) event.respondWith(fromNetworkFirst(request, DATA, dataKey(url)));
});

/**
 * Under what a read is kept: its URL, except that a GraphQL GET is known by its operation and variables
 * (the page's early request and urql's write the same query differently).
 */
function dataKey(url) {
  if (url.pathname !== '/api/graphql') return url.pathname + url.search;
  const params = url.searchParams;
  const variables = JSON.parse(params.get('variables') || '{}');
  const sorted = Object.keys(variables)
    .sort()
    .map((name) => [name, variables[name]]);
  return `/api/graphql?operationName=${params.get('operationName')}&variables=${encodeURIComponent(JSON.stringify(sorted))}`;
}

async function fromCacheFirst(request) {
  const cache = await caches.open(ASSETS);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(old);
  }
  return response;
}

/** The network's answer, kept under `key` (the request's URL by default); offline, the kept one. */
async function fromNetworkFirst(request, name, key = request) {
  try {
    const response = await fetch(request);
    // Opened only to keep an answer: a signed-out visit leaves no account cache behind, not even an empty one.
    if (response.ok) await (await caches.open(name)).put(key, response.clone());
    // Signed out (or the session ended): nothing of the account stays on the device.
    else if (response.status === 401) await caches.delete(DATA);
    return response;
  } catch (error) {
    const cached = await caches.match(key, { cacheName: name });
    if (cached) return cached;
    throw error;
  }
}

/** A reminder (or a test) from the server, encrypted to this device: `{ title, body, url, tag }`. */
self.addEventListener('push', (event) => {
  let message = { title: 'Shiplog', body: '', url: '/', tag: undefined };
  try {
    message = { ...message, ...event.data?.json() };
  } catch {
    message.body = event.data?.text() ?? '';
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

/** Tapping it opens its link (a reminder's one-tap completion) in a window of the app, or a new one. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin);
  // Only the app's own pages.
  const url = target.origin === self.location.origin ? target.href : self.location.origin;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => 'navigate' in client);
      if (open) {
        await open.focus();
        await open.navigate(url);
      } else await self.clients.openWindow(url);
    })(),
  );
});
