import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: the browser tests drive the system's, never one downloaded by Playwright. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless Chromium. Missing, it fails the test with the fix rather than skipping it: CI installs it
 * (.ci/run). The flags keep it off the network: without them it keeps calling Google's services.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: the browser tests need Debian's Chromium ` +
        '(sudo apt-get install -y --no-install-recommends chromium)',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 30_000,
    args: [
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
