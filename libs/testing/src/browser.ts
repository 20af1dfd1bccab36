import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (`CHROMIUM_PATH` to use another), headless, for the browser tests and the
 * benchmarks alike. Without the background-networking flags it keeps trying hosts this machine's
 * closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
