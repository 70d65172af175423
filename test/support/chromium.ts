// Debian's Chromium driven by playwright-core, as the browser tests use it.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

/** Debian's chromium as found on PATH (/usr/bin/chromium), or null. */
export const CHROMIUM = ((): string | null => {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

/** Why the browser tests cannot run here, or null (for skipWithout). */
export const chromiumMissing =
  CHROMIUM === null ? 'chromium is not on PATH (scripts/system-deps.sh installs the Debian chromium package)' : null;

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

/**
 * Headless Chromium on a fresh profile folder, so nothing from a user's profile leaks in; without
 * the background-networking flags it keeps calling out and is refused by this closed network.
 * `webgl` renders WebGL (MapLibre) on the CPU through SwiftShader, as this machine has no GPU.
 */
export async function launchChromium(options: { webgl?: boolean } = {}): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'geolookup-chromium-'));
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM ?? undefined,
    headless: true,
    args: [
      '--no-sandbox',
      ...(options.webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu']),
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
