import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  /** Stops the server at once and removes its files. */
  stop(): void;
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
 * Creates a cluster in a new temporary folder (no fsync, trust auth, UTF-8) and starts it on a
 * free loopback port, with its socket in that folder. Without fsync, a killed server's committed
 * transactions survive in the operating system's cache, which is all a kill test needs. initdb refuses to run as root, so as root
 * the server runs as the `postgres` user through `runuser`.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-postgres-'));
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
    run('pg_ctl', startArgs);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kill: () => runAsync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    restart: () => runAsync('pg_ctl', startArgs),
    stop() {
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
