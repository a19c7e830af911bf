import { execFile } from 'node:child_process';

/**
 * How long one command may run: a limit for a hang only, far above a command's time on a loaded
 * machine, and below the tests' own limit (vitest.shared.ts), so that a command stopped by it
 * reports its output instead of its test timing out.
 */
export const COMMAND_LIMIT_MS = 600_000;

/** What {@link runCommand} resolves with. */
export interface CommandOutcome {
  /** Whether the command failed: a non-zero exit, or stopped by a signal. */
  failed: boolean;
  /** Its standard output and error; for a failed command, then how and after how long it ended. */
  output: string;
}

/**
 * Runs a command. The output of a failed command ends with how it ended (its exit code, or the
 * signal that stopped it and whether the limit did) and after how long, so that a failure says
 * more than that it failed.
 *
 * @param command - the program
 * @param args - its arguments
 * @param cwd - the folder to run it in
 * @param limitMs - when to stop it (SIGTERM)
 * @returns whether it failed, and its output
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  limitMs = COMMAND_LIMIT_MS,
): Promise<CommandOutcome> {
  const started = Date.now();
  return new Promise((done) =>
    execFile(
      command,
      args,
      { cwd, timeout: limitMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) return done({ failed: false, output: `${stdout}${stderr}` });
        const { code, signal, killed } = error as {
          code?: unknown;
          signal?: string | null;
          killed?: boolean;
        };
        const how = signal
          ? `was stopped by ${signal}${killed ? ` at its limit of ${limitMs / 1000} s` : ''}`
          : `exited with code ${String(code)}`;
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const ending = `[${[command, ...args].join(' ')} ${how} after ${seconds} s]`;
        done({ failed: true, output: `${stdout}${stderr}\n${ending}` });
      },
    ),
  );
}
