/**
 * What a newcomer does after `pnpm demo -- --db FILE`: `ctxkit inspect --json` and `ctxkit view`
 * on the demo's database, the page in headless Chromium (Debian's, driven by playwright-core),
 * and the file's bytes checked unchanged. Set CTXKIT_UPDATE_SCREENSHOT=1 to write the page's
 * screenshot to docs/inspector.png.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ConversationReport } from '@ctxkit/inspector';
import Database from 'better-sqlite3';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONVERSATION } from '../src/demo-session.js';
import { tempDatabase } from './temp-database.js';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The `ctxkit` command's source (the workspace resolves the package to its src/). */
const CLI = join(dirname(fileURLToPath(import.meta.resolve('@ctxkit/inspector'))), 'cli.ts');
const database = tempDatabase();
let browser: Browser;
let before: string;

function checksum(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function ctxkit(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--conditions=@ctxkit/source', '--import', 'tsx', CLI, ...args], {
    cwd: REPO_ROOT,
  });
}

function chromiumPath(): string {
  const found = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
  if (found === undefined) throw new Error('no Chromium: apt-get install chromium');
  return found;
}

/** The demo's builds as the events table holds them: turn order, changes per build. */
function recordedBuilds(): { changes: unknown[] }[] {
  const db = new Database(database.file, { readonly: true, fileMustExist: true });
  const rows = db
    .prepare("select payload from events where type = 'context.compressed' order by id")
    .all() as { payload: string }[];
  db.close();
  return rows.map((row) => JSON.parse(row.payload) as { changes: unknown[] });
}

beforeAll(async () => {
  const demo = spawnSync('pnpm', ['demo', '--', '--db', database.file], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(demo.status, demo.stderr).toBe(0);
  expect(demo.stdout).toContain(`The demo's database: ${database.file}`);
  before = checksum(database.file);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  database.remove();
});

describe("ctxkit on the demo's database", () => {
  it('inspect --json lists every build with its per-message changes', async () => {
    const child = ctxkit(['inspect', database.file, '--json']);
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
    });
    const status = await new Promise((resolve) => child.on('exit', resolve));
    expect(status).toBe(0);
    const { conversations } = JSON.parse(out) as { conversations: ConversationReport[] };
    const recorded = recordedBuilds();
    expect(recorded.length).toBeGreaterThan(10);
    expect(conversations.map((report) => report.conversation.id)).toEqual([DEMO_CONVERSATION]);
    const builds = conversations[0]?.builds ?? [];
    expect(builds.map((build) => build.messages.length)).toEqual(
      recorded.map((payload) => payload.changes.length),
    );
    expect(builds.some((build) => build.counts.dropped > 0)).toBe(true);
  });

  it('view serves a page whose chart renders and whose turns show their messages, dropped ones marked', async () => {
    const child = ctxkit(['view', database.file, '--port', '0']);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
        if (found) resolve(found[0]);
      });
      child.on('exit', (code) => reject(new Error(`ctxkit view exited with ${code}`)));
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
      const violations = policyViolations(page);
      const response = await page.goto(url);
      // The page works under its strict policy: no inline code but its own, by hash.
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'sha256-/);
      const turn = await checkPage(page);
      expect(violations).toEqual([]);
      const screenshot = await page.screenshot({ fullPage: false });
      expect(screenshot.length).toBeGreaterThan(10_000);
      if (process.env.CTXKIT_UPDATE_SCREENSHOT) {
        writeFileSync(join(REPO_ROOT, 'docs', 'inspector.png'), screenshot);
      }
      expect(turn).toBeGreaterThan(1);
      await page.close();
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('view --html writes one self-contained page that works from a file', async () => {
    const html = join(dirname(database.file), 'view.html');
    const child = ctxkit(['view', database.file, '--html', html]);
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const violations = policyViolations(page);
    await page.goto(pathToFileURL(html).href);
    await checkPage(page);
    expect(violations).toEqual([]);
    expect(requested.filter((address) => !address.startsWith('file:'))).toEqual([]);
    await page.close();
  });

  it('left the database file as it was', () => {
    expect(checksum(database.file)).toBe(before);
  });
});

/** Collects what the browser reports of the page breaking its Content-Security-Policy. */
function policyViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) found.push(message.text());
  });
  return found;
}

/**
 * Waits for the page, checks its chart (one clickable turn per build, the four lines), clicks the
 * last turn that dropped messages and checks its table marks exactly those as dropped.
 *
 * @returns the turn clicked
 */
async function checkPage(page: Page): Promise<number> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.waitForSelector('body[data-ready="true"]');
  const recorded = recordedBuilds();
  expect(await page.locator('#chart svg rect.turn-hit').count()).toBe(recorded.length);
  for (const line of ['sent', 'history', 'window', 'cached']) {
    expect(await page.locator(`#chart svg polyline.line.${line}`).count(), line).toBe(1);
  }
  const dropping = recorded
    .map((payload, index) => ({
      turn: index + 1,
      dropped: (payload.changes as { action: string }[]).filter(
        (change) => change.action === 'dropped' || change.action === 'summarized',
      ).length,
    }))
    .filter((build) => build.dropped > 0);
  const target = dropping.at(-1);
  if (target === undefined) throw new Error('the demo dropped nothing');
  await page.locator(`#chart rect.turn-hit[data-turn="${target.turn}"]`).click();
  await page.waitForSelector(`#build[data-turn="${target.turn}"]`);
  const dropped = page.locator('#messages tr.fate-dropped');
  expect(await dropped.count()).toBe(target.dropped);
  expect(await dropped.locator('.label').allTextContents()).toEqual(
    Array.from({ length: target.dropped }, () => 'dropped'),
  );
  expect(await page.locator('#messages tr.message').count()).toBe(
    recorded[target.turn - 1]?.changes.length,
  );
  expect(await page.locator('#build').textContent()).toMatch(/billed cost/);
  expect(errors).toEqual([]);
  return target.turn;
}
