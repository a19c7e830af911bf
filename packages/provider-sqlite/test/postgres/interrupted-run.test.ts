import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

const skipReason = inject('postgresSkipReason');
const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'interrupted-run');
const vitest = join(here, '..', '..', '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
/** How long the processes of an interrupted run may take to be gone: a limit for a hang only. */
const GONE_WITHIN_MS = 60_000;

describe.skipIf(inject('postgresUrl') === '' || process.platform !== 'linux')(
  `a test run interrupted while its PostgreSQL server is up${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    // SIGKILL runs no handler at all: only something outside the run can stop the server then.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
      it(`by ${signal} leaves no server, no server folder and no worker process behind`, async () => {
        const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-interrupted-run-'));
        const report = join(scratch, 'report.json');
        const run = spawn(
          process.execPath,
          [vitest, 'run', '--config', join(fixture, 'vitest.config.ts'), '--root', fixture],
          {
            env: { ...process.env, CTXKIT_INTERRUPTED_RUN_REPORT: report },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        run.stdout.on('data', (chunk) => (output += chunk));
        run.stderr.on('data', (chunk) => (output += chunk));
        const exited = new Promise<void>((resolve) => run.once('exit', () => resolve()));
        let server: { pid: number; data: string } | undefined;
        try {
          // Until the run's test holds the server (or the run ends, which is a failure).
          while (!existsSync(report) && run.exitCode === null && run.signalCode === null) {
            await sleep(100);
          }
          expect(existsSync(report), `the run ended before its test started:\n${output}`).toBe(
            true,
          );
          const { url, worker } = JSON.parse(readFileSync(report, 'utf8')) as {
            url: string;
            worker: number;
          };
          const port = Number(new URL(url).port);
          server = postmasterOn(port);
          // The checks below can see a server: it is up and accepting connections now.
          expect(server, `no postgres process listens on port ${port}`).toBeDefined();
          expect(await accepts(port)).toBe(true);

          run.kill(signal);
          await exited;
          const left = async () => {
            const found: string[] = [];
            const data = server?.data as string;
            for (const process of processesWith(data)) found.push(`server process ${process}`);
            if (alive(worker)) found.push(`vitest worker ${worker}`);
            if (await accepts(port)) found.push(`a server accepting connections on port ${port}`);
            if (existsSync(dirname(data))) found.push(`the server folder ${dirname(data)}`);
            return found;
          };
          const deadline = Date.now() + GONE_WITHIN_MS;
          let found = await left();
          while (found.length > 0 && Date.now() < deadline) {
            await sleep(250);
            found = await left();
          }
          expect(found, `left behind ${GONE_WITHIN_MS / 1000} s after ${signal}`).toEqual([]);
        } finally {
          // Whatever a failing run left is stopped here, not left to the next run.
          if (run.exitCode === null && run.signalCode === null) run.kill('SIGKILL');
          if (server !== undefined) {
            for (const pid of processesWith(server.data)) {
              try {
                process.kill(pid, 'SIGQUIT');
              } catch {
                // Gone already.
              }
            }
            rmSync(dirname(server.data), { recursive: true, force: true });
          }
          rmSync(scratch, { recursive: true, force: true });
        }
      });
    }
  },
);

// --- internal helpers ---

/** The command line of every process, by id (Linux: from /proc). */
function commandLines(): Map<number, string[]> {
  const lines = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(join('/proc', entry, 'cmdline'), 'utf8');
      if (text !== '') lines.set(Number(entry), text.split('\0'));
    } catch {
      // Ended while listed.
    }
  }
  return lines;
}

/** The PostgreSQL server started with `-p port`, and its data folder (`-D`). */
function postmasterOn(port: number): { pid: number; data: string } | undefined {
  for (const [pid, args] of commandLines()) {
    const at = args.indexOf('-p');
    const data = args[args.indexOf('-D') + 1];
    if (at >= 0 && args[at + 1] === String(port) && args.includes('-D') && data !== undefined) {
      if (args[0]?.endsWith('postgres')) return { pid, data };
    }
  }
  return undefined;
}

/** Processes whose command line names `path`. */
function processesWith(path: string): number[] {
  return [...commandLines()]
    .filter(([pid, args]) => pid !== process.pid && args.some((arg) => arg.includes(path)))
    .map(([pid]) => pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
