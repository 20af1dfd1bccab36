/**
 * This device's side of the installed app (web/public/sw.js): the service worker that keeps the last
 * dashboard, projects and reminders for reading offline and shows push reminders, and this browser's
 * push subscription. Loaded with the shell's after-first-screen parts, and by Settings › Notifications.
 */

import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { dashboardVariables } from './dashboard-query';
import { projectsQuery, remindersQuery, userQuery } from './queries';

/**
 * Registered once signed in (the shell): the next visit can open offline. A visit the worker did not
 * answer (the one that installs it) then reads the pages kept for offline through it once (the
 * dashboard, My Projects, Reminders: their code, and their data it does not hold yet), so it keeps all
 * three whichever pages that visit opens. Every later visit goes through it, and its reads refresh
 * what it keeps.
 */
export async function registerServiceWorker(router: AnyRouter, queryClient: QueryClient): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const answered = navigator.serviceWorker.controller !== null;
  await navigator.serviceWorker.register('/sw.js');
  if (answered) return;
  await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  await keepLoadedFiles();
  const kept = (await (await caches.open('shiplog-data')).keys()).map((request) => new URL(request.url).pathname);
  const missing = (path: string) => !kept.includes(path);
  const { dashboardQuery } = await import('./graphql');
  await Promise.all([
    router.preloadRoute({ to: '/' }),
    router.preloadRoute({ to: '/projects' }),
    router.preloadRoute({ to: '/reminders' }),
    missing('/api/user') && queryClient.fetchQuery({ ...userQuery, staleTime: 0 }),
    missing('/api/graphql') && queryClient.fetchQuery({ ...dashboardQuery(dashboardVariables({})), staleTime: 0 }),
    missing('/api/projects') && queryClient.fetchQuery({ ...projectsQuery, staleTime: 0 }),
    missing('/api/reminders') && queryClient.fetchQuery({ ...remindersQuery, staleTime: 0 }),
  ]);
}

/**
 * The built files this page loaded before the worker answered it (the code of the page it opened on,
 * and what that page loaded lazily), kept as the worker keeps the files it fetches: a module already
 * loaded is not fetched again, so a preload would not bring it through the worker, and the app could
 * not open offline on that page. From the browser's HTTP cache, as they are named by their content.
 */
async function keepLoadedFiles(): Promise<void> {
  const assets = await caches.open('shiplog-assets');
  const loaded = new Set(
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname),
  );
  await Promise.all(
    [...loaded].map(async (path) => {
      if (!(await assets.match(path))) await assets.add(path).catch(() => {});
    }),
  );
}

/**
 * What this browser can do about push reminders: `unsupported` (no Push API, or not installed on
 * iOS), `denied` (notifications blocked in the browser's settings), or whether it is subscribed.
 */
export type DevicePush = { state: 'unsupported' | 'denied' } | { state: 'off' } | { state: 'on'; endpoint: string };

export async function devicePush(): Promise<DevicePush> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return { state: 'unsupported' };
  if (Notification.permission === 'denied') return { state: 'denied' };
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? { state: 'on', endpoint: subscription.endpoint } : { state: 'off' };
}

/**
 * Asks for permission (the browser's prompt), then subscribes this browser with the server's VAPID
 * public key: what the server stores to push here.
 */
export async function subscribeDevice(publicKey: string): Promise<PushSubscriptionJSON> {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('Notifications are blocked for Shiplog in this browser’s settings');
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64urlBytes(publicKey),
  });
  return subscription.toJSON();
}

/** Ends this browser's subscription; its endpoint, for the server to forget (null: there was none). */
export async function unsubscribeDevice(): Promise<string | null> {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  if (!subscription) return null;
  await subscription.unsubscribe();
  return subscription.endpoint;
}

function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** How Settings names this device among the user's: "Chrome on Android". */
export function deviceLabel(agent = navigator.userAgent): string {
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Mac OS X/.test(agent)
        ? 'macOS'
        : /Windows/.test(agent)
          ? 'Windows'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}
