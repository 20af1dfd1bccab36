import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's lighter build for tests (package chromium-headless-shell): the same engine, without the browser's windows. */
const headlessShell = '/usr/bin/chromium-headless-shell';

/**
 * Debian's Chromium (`CHROMIUM_PATH` to use another), headless, for the browser tests and the
 * benchmarks alike. Without the background-networking flags it keeps trying hosts this machine's
 * closed network refuses.
 *
 * By default the headless shell when it is installed: the full browser opens a window with its
 * toolbar for every context, about five times the work per context on a two-core machine, which the
 * browser tests pay hundreds of times. `full` asks for the browser itself, for what only it does
 * (showing notifications, a real user's timings in the benchmarks).
 */
export function launchChromium(options: { full?: boolean } = {}): Promise<Browser> {
  const executablePath =
    process.env.CHROMIUM_PATH ?? (!options.full && existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
