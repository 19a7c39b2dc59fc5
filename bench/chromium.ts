/** Debian's chromium for the browser test and the dashboard bench, started for a closed network. */
import { type Browser, chromium } from 'playwright-core';

/** Where Debian's package installs chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, no sandbox (root), and none of chromium's own network traffic: without the
 * background-networking flags its connections are refused by the closed network, many at a time.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts chromium with a new, empty profile in a temporary directory of its own. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
