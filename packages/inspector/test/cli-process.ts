import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/index.js';

/** The `ctxkit` command's source, run through tsx as the bin runs its build. */
export const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const NODE_ARGS = ['--conditions=@ctxkit/source', '--import', 'tsx', CLI];

/**
 * Runs `ctxkit` with `args` as a separate process, to its end, or to a limit that only a hang
 * reaches (its stderr then says so, after what the process printed).
 */
export function runCtxkit(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [...NODE_ARGS, ...args], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', ...env },
    timeout: 600_000,
  });
  const stopped = result.signal
    ? `\n[ctxkit ${args.join(' ')} was stopped by ${result.signal}]`
    : '';
  return { status: result.status, stdout: result.stdout, stderr: `${result.stderr}${stopped}` };
}

/**
 * Runs `ctxkit` with `args` in this process, as the command runs it (`runCli`), and collects
 * what it prints: for what does not need a process of its own, at a fraction of the time (a
 * process spends over a second loading the command through tsx).
 */
export async function runCtxkitHere(args: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
  });
  return { status, stdout, stderr };
}

/**
 * Runs `ctxkit` with `args` as a user without privileges: as `nobody` (through `runuser`) when
 * this process is root, which file permissions do not bind; as this process's user otherwise.
 */
export function runCtxkitUnprivileged(args: string[]) {
  const command = [process.execPath, ...NODE_ARGS, ...args];
  const [file, ...rest] =
    process.getuid?.() === 0 ? ['runuser', '-u', 'nobody', '--', ...command] : command;
  const result = spawnSync(file as string, rest, {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `ctxkit view` as a separate process; resolves with its URL once it listens. */
export async function startCtxkitView(file: string) {
  const child = spawn(process.execPath, [...NODE_ARGS, 'view', file, '--port', '0'], {
    cwd: PACKAGE_DIR,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (found) resolve(found[0]);
    });
    child.stderr.on('data', (chunk) => reject(new Error(String(chunk))));
    child.on('exit', (code) => reject(new Error(`ctxkit view exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** The SHA-256 of a file's bytes. */
export function checksum(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
