import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import {
  findPostgresBin,
  startPostgresCluster,
} from '../../../packages/provider-sqlite/test/postgres/postgres-cluster.js';
import { SCALE_CACHE } from './scale-cache.js';

/** The scale bench's PostgreSQL server: a cluster kept under the cache, so seeded data survives. */
export interface ScalePostgres {
  /** Connection string of database `name`. */
  url(name: string): string;
  /** Whether database `name` exists. */
  exists(name: string): Promise<boolean>;
  /** Creates database `name`, empty or as a copy of `template`, dropping any of that name first. */
  create(name: string, template?: string): Promise<void>;
  /**
   * Gathers the planner's statistics of database `name` (`ANALYZE`), as autovacuum does on a
   * server in use; without them the planner takes the seeded tables for empty.
   */
  analyze(name: string): Promise<void>;
  /** Renames database `from` to `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Drops database `name` if it exists. */
  drop(name: string): Promise<void>;
  /** Closes the connection and stops the server cleanly, keeping its files. */
  stop(): Promise<void>;
}

/**
 * Starts the cluster kept in `bench/.cache/scale/postgres-<major version>/` (created on first
 * use) with provider-sqlite's test helper, on a free loopback port.
 *
 * @throws Error when `initdb` and `pg_ctl` are not found, or the server does not start
 */
export async function startScalePostgres(): Promise<ScalePostgres> {
  const bin = findPostgresBin();
  if (bin === undefined) {
    throw new Error(
      'PostgreSQL: initdb and pg_ctl were found neither on the PATH nor in /usr/lib/postgresql/*/bin; ' +
        'install PostgreSQL or run with --backends sqlite.',
    );
  }
  // A cluster's files are read only by the major version that wrote them.
  const version = /\(PostgreSQL\) (\d+)/.exec(
    execFileSync(join(bin, 'pg_ctl'), ['--version'], { encoding: 'utf8' }),
  )?.[1];
  const cluster = await startPostgresCluster(bin, {
    keepIn: join(SCALE_CACHE, `postgres-${version ?? 'unknown'}`),
  });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const url = (name: string) => cluster.url.replace(/\/postgres$/, `/${name}`);
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const drop = async (name: string) => {
    await admin.query(`drop database if exists ${quoted(name)}`);
  };
  return {
    url,
    async exists(name) {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      return found.rowCount === 1;
    },
    async create(name, template) {
      await drop(name);
      await admin.query(
        `create database ${quoted(name)}${template === undefined ? '' : ` template ${quoted(template)}`}`,
      );
    },
    async analyze(name) {
      const client = new pg.Client({ connectionString: url(name) });
      await client.connect();
      try {
        await client.query('analyze');
      } finally {
        await client.end();
      }
    },
    async rename(from, to) {
      await admin.query(`alter database ${quoted(from)} rename to ${quoted(to)}`);
    },
    drop,
    async stop() {
      try {
        await admin.end();
      } finally {
        cluster.stop();
      }
    },
  };
}
