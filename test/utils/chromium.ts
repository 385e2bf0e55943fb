import { chromium, type Browser } from 'playwright-core';
import { chromiumPath, MISSING_BINARY_ADVICE } from './system-binaries.js';

/**
 * The system's headless Chromium (`CHROMIUM_PATH`, else the PATH's), never one downloaded by
 * Playwright. Missing, it fails the test with the fix rather than skipping it. The flags keep it off
 * the network: without them it keeps calling Google's services.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumPath();
  if (!executablePath) throw new Error(`No Chromium found for the browser tests: ${MISSING_BINARY_ADVICE}`);
  return chromium.launch({
    executablePath,
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
