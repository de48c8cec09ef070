/**
 * Headless Chromium from Debian's package (/usr/bin/chromium), driven by
 * puppeteer-core: never a downloaded browser. Each launch gets a fresh
 * profile; console errors and uncaught page errors are collected.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.TUNE2048_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium); .ci/run does`);
  // Chromium writes crash reports under ~/.config/chromium and GTK a dconf cache under ~/.cache whatever the
  // profile folder: a home of its own in the suite's folder keeps the user's home as it was.
  const home = mkdtempSync(join(tmpdir(), 'tune2048-chromium-home-'));
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'), XDG_DATA_HOME: join(home, '.local', 'share') },
    // A wait in the page is one protocol call: let the test's own timeout, not puppeteer's 180 s, end it.
    protocolTimeout: 600_000,
    userDataDir: mkdtempSync(join(tmpdir(), 'tune2048-chromium-')),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** A page whose console errors and uncaught exceptions land in `errors`. */
export async function openPage(browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${String(e)}`));
  return page;
}
