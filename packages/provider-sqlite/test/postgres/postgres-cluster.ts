import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A throwaway PostgreSQL cluster listening on loopback only. */
export interface PostgresCluster {
  /** Connection string of its `postgres` database, as the `postgres` superuser (trust auth). */
  url: string;
  /**
   * Stops the server at once (`pg_ctl stop -m immediate`, as a crash of the server would),
   * keeping its files; resolves once it is down.
   */
  kill(): Promise<void>;
  /**
   * Starts the server again on the same files and port, after {@link PostgresCluster.kill};
   * resolves once it accepts connections (after its crash recovery).
   */
  restart(): Promise<void>;
  /** Stops the server: at once, removing its files; or, for a kept cluster, cleanly, keeping them. */
  stop(): void;
}

/** Options of {@link startPostgresCluster}. */
export interface PostgresClusterOptions {
  /**
   * A folder to keep the cluster in across runs: created when missing, its cluster created on
   * first use and started again later, and left in place (stopped cleanly) by `stop()`.
   *
   * @default `undefined`: a new temporary folder, removed by `stop()`
   */
  keepIn?: string;
}

/**
 * The folder holding `initdb` and `pg_ctl`: on the PATH, or the newest
 * `/usr/lib/postgresql/<version>/bin` (Debian and Ubuntu keep them there). Undefined when absent.
 */
export function findPostgresBin(): string | undefined {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const versioned = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : [];
  return [...onPath, ...versioned].find(
    (folder) => existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl')),
  );
}

/**
 * Creates a cluster in a new temporary folder (no fsync, trust auth, UTF-8), or reuses the one
 * kept in `options.keepIn`, and starts it on a free loopback port, with its socket in that
 * folder. initdb refuses to run as root, so as root the server runs as the `postgres` user
 * through `runuser`. Without fsync, a killed server's committed transactions survive in the
 * operating system's cache, which is all a kill test needs.
 */
export async function startPostgresCluster(
  bin: string,
  options: PostgresClusterOptions = {},
): Promise<PostgresCluster> {
  const kept = options.keepIn;
  if (kept !== undefined) mkdirSync(kept, { recursive: true });
  const folder = kept ?? mkdtempSync(join(tmpdir(), 'ctxkit-postgres-'));
  const data = join(folder, 'data');
  const asServer = serverUser(folder);
  const port = await freePort();
  const run = (tool: string, args: string[]) =>
    execFileSync(asServer.command, [...asServer.prefix, join(bin, tool), ...args], {
      stdio: 'pipe',
      timeout: 60_000,
    });
  // Without blocking the event loop, so that clients see the server go and come back.
  const runAsync = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(
        asServer.command,
        [...asServer.prefix, join(bin, tool), ...args],
        { timeout: 60_000 },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  // Stops the server and removes a temporary folder when this process ends in any way, before
  // `stop()`: Ctrl-C, SIGTERM, a crash or SIGKILL, which run no handler of ours.
  const watchdog = startWatchdog(
    [
      asServer.command,
      ...asServer.prefix,
      join(bin, 'pg_ctl'),
      '-D',
      data,
      '-m',
      'immediate',
      '-w',
      'stop',
    ],
    data,
    kept === undefined ? folder : undefined,
  );
  const startArgs = [
    '-D',
    data,
    '-l',
    join(folder, 'log'),
    '-w',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${folder} -c fsync=off -c full_page_writes=off`,
    'start',
  ];
  try {
    if (kept === undefined || !existsSync(join(data, 'PG_VERSION'))) {
      rmSync(data, { recursive: true, force: true });
      run('initdb', [
        '-D',
        data,
        '-U',
        'postgres',
        '-A',
        'trust',
        '--no-sync',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
      ]);
    }
    if (existsSync(join(data, 'postmaster.pid'))) {
      // A kept cluster a crashed run left running: stopped first, or the start below would fail.
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } catch {
        // No server behind the stale pid file: the start below clears it.
      }
    }
    run('pg_ctl', startArgs);
  } catch (error) {
    watchdog.kill();
    if (kept === undefined) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: () => runAsync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    restart: () => runAsync('pg_ctl', startArgs),
    stop() {
      watchdog.kill();
      if (kept !== undefined) {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
        return;
      }
      try {
        // After kill() without restart() there is no server left to stop.
        if (existsSync(join(data, 'postmaster.pid'))) {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        }
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

// --- internal helpers ---

/**
 * What the watchdog runs once its standard input closes, which the operating system does when
 * the process that started it ends, however it ends: `pg_ctl stop` (again while a server is
 * still up, as when the end came during a start), then the folder removed, if one is given.
 */
const WATCHDOG_SCRIPT = `read -r _
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  "$@" >/dev/null 2>&1
  sleep 1
  [ -e "$CTXKIT_POSTGRES_DATA/postmaster.pid" ] || break
done
if [ -n "$CTXKIT_POSTGRES_REMOVE" ]; then rm -rf "$CTXKIT_POSTGRES_REMOVE"; fi`;

/**
 * A detached shell (its own session, so a Ctrl-C meant for the test run does not reach it)
 * holding the read end of a pipe from this process; kill it once the server is stopped.
 *
 * @param stop - `pg_ctl -D <data> -m immediate -w stop`, with its `runuser` prefix when needed
 * @param data - the cluster's data folder
 * @param remove - the folder to remove after the stop, or `undefined` to keep it
 */
function startWatchdog(stop: string[], data: string, remove: string | undefined): ChildProcess {
  const watchdog = spawn('sh', ['-c', WATCHDOG_SCRIPT, 'ctxkit-postgres-watchdog', ...stop], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...process.env, CTXKIT_POSTGRES_DATA: data, CTXKIT_POSTGRES_REMOVE: remove ?? '' },
  });
  // Neither the shell nor the pipe keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref(): void }).unref();
  return watchdog;
}

/** How to run the server tools: directly, or as `postgres` through `runuser` when root. */
function serverUser(folder: string): { command: string; prefix: string[] } {
  if (process.getuid?.() !== 0) return { command: 'env', prefix: [] };
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(folder, id('-u'), id('-g'));
  return { command: 'runuser', prefix: ['-u', 'postgres', '--'] };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
