import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { printTable } from '../measure.js';
import { floorMatchesBuild, measureTurns, SCALE_MODEL } from './measure-turns.js';
import { SCALE_CACHE, seededName } from './scale-cache.js';
import { SCALE_CONTENT_VERSION } from './scale-history.js';
import { parseScaleOptions, type ScaleOptions, turnCountsFor } from './scale-options.js';
import { type ScalePostgres, startScalePostgres } from './scale-postgres.js';
import {
  growthLines,
  SCALE_RESULTS,
  type ScaleRecord,
  scaleRecord,
  scaleTable,
  writeScaleResults,
} from './scale-results.js';
import { openScaleStore, SCALE_COUNTER } from './scale-store.js';
import type { ScaleBackend, ScaleTarget } from './scale-target.js';
import { duration, seedStore } from './seed-store.js';

/** What a measuring process reports to the run. */
interface ChildMeasurement {
  buildMs: number;
  floorMs: number;
  firstBuildMs: number;
  peakRssMb: number;
}

/**
 * `pnpm bench:scale`: the per-turn cost of a build as stored history grows, on SQLite and on
 * PostgreSQL, against the floor read on the same database. Each (backend, size) is seeded once
 * into the cache by a process of its own, then measured on a fresh copy by another process, whose
 * peak memory is its record's.
 */
async function runScale(options: ScaleOptions): Promise<void> {
  console.log(
    `Scale bench: one conversation of N stored messages (content v${SCALE_CONTENT_VERSION}), ` +
      `${SCALE_MODEL}'s window, ${SCALE_COUNTER.name}; cache in ${SCALE_CACHE}`,
  );
  if (!options.sizes.includes(1_000_000)) {
    console.log('1,000,000 messages run only when asked for: --sizes 1000,1000000.');
  }
  mkdirSync(join(SCALE_CACHE, 'work'), { recursive: true });
  const records: ScaleRecord[] = [];
  for (const backend of options.backends) {
    const postgres = backend === 'postgres' ? await startScalePostgres() : undefined;
    try {
      for (const size of options.sizes) {
        const record = await runOne(backend, size, options, postgres);
        if (record !== undefined) records.push(record);
      }
    } finally {
      await postgres?.stop();
    }
  }
  if (records.length === 0) return;
  printTable('Per-turn build against the floor, by stored history size', scaleTable(records));
  for (const line of growthLines(records)) console.log(line);
  writeScaleResults(records);
  console.log(`\nRecords written to ${SCALE_RESULTS}.`);
}

/**
 * Seeds one backend at one size unless cached, then (unless `--seed-only`) measures it on a
 * fresh copy. Undefined when it was not measured: seeded only, or the measuring process failed
 * (its error is printed, and the run goes on with the next size).
 */
async function runOne(
  backend: ScaleBackend,
  size: number,
  options: ScaleOptions,
  postgres: ScalePostgres | undefined,
): Promise<ScaleRecord | undefined> {
  const label = `${backend} ${size.toLocaleString('en')}`;
  const seeded = await ensureSeeded(size, label, postgres);
  if (options.seedOnly) return undefined;
  const counts = turnCountsFor(options.turns);
  let work: ScaleTarget;
  let cleanUp: () => Promise<void>;
  if (postgres === undefined) {
    const copy = join(SCALE_CACHE, 'work', `${seededName(size)}.sqlite`);
    removeSqlite(copy);
    copyFileSync(seeded, copy);
    work = { backend: 'sqlite', filename: copy };
    cleanUp = async () => removeSqlite(copy);
  } else {
    const copy = `${seeded}_work`;
    await postgres.create(copy, seeded);
    work = { backend: 'postgres', url: postgres.url(copy) };
    cleanUp = () => postgres.drop(copy);
  }
  try {
    const figures = measureInChild(work, size, counts);
    const record = scaleRecord(backend, size, figures);
    console.log(
      `  measured ${label}: build ${record.buildMs.toFixed(1)} ms (first ${record.firstBuildMs.toFixed(1)} ms), floor ${record.floorMs.toFixed(2)} ms, ` +
        `peak ${record.peakRssMb.toFixed(0)} MiB`,
    );
    return record;
  } catch (error) {
    console.log(`  not measured ${label}: ${(error as Error).message}`);
    return undefined;
  } finally {
    await cleanUp();
  }
}

/**
 * The cached store of `size` messages, seeded first when missing (into a partial file or
 * database, renamed once complete, so an interrupted seeding is never taken for a cached one):
 * its file name on SQLite (`postgres` undefined), its database name on PostgreSQL.
 */
async function ensureSeeded(
  size: number,
  label: string,
  postgres: ScalePostgres | undefined,
): Promise<string> {
  const name = seededName(size);
  if (postgres === undefined) {
    const seeded = join(SCALE_CACHE, `${name}.sqlite`);
    if (!existsSync(seeded)) {
      const partial = `${seeded}.partial`;
      removeSqlite(partial);
      seedInChild({ backend: 'sqlite', filename: partial }, size, label);
      renameSync(partial, seeded);
    }
    return seeded;
  }
  if (!(await postgres.exists(name))) {
    const partial = `${name}_partial`;
    await postgres.create(partial);
    seedInChild({ backend: 'postgres', url: postgres.url(partial) }, size, label);
    await postgres.analyze(partial);
    await postgres.rename(partial, name);
  }
  return name;
}

/** Seeds `target` in a process of its own, printing its progress and how long it took. */
function seedInChild(target: ScaleTarget, size: number, label: string): void {
  console.log(`Seeding ${label} messages (cached afterwards)…`);
  const started = performance.now();
  child(['seed', JSON.stringify(target), String(size), label]);
  console.log(`  seeded ${label} in ${duration((performance.now() - started) / 1_000)}`);
}

/** Measures `target` in a process of its own; its figures, peak memory included. */
function measureInChild(
  target: ScaleTarget,
  size: number,
  counts: { warmUp: number; turns: number },
): ChildMeasurement {
  const output = child([
    'measure',
    JSON.stringify(target),
    String(size),
    String(counts.warmUp),
    String(counts.turns),
  ]);
  return JSON.parse(output.trim().split('\n').pop() as string) as ChildMeasurement;
}

/** Runs this script with `args` in a new process, its stderr shown; its stdout. */
function child(args: string[]): string {
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1] as string, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (run.status !== 0) {
    throw new Error(`The ${args[0]} process failed (exit ${String(run.status ?? run.signal)}).`);
  }
  return run.stdout;
}

/** Removes a SQLite file and its WAL and shared-memory files. */
function removeSqlite(filename: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${filename}${suffix}`, { force: true });
}

/** The seeding process: `seed <target> <size> <label>`. */
async function seedChild([target, size, label]: string[]): Promise<void> {
  const result = await seedStore(JSON.parse(target as string), Number(size), label as string);
  console.log(JSON.stringify(result));
}

/**
 * The measuring process: `measure <target> <size> <warm-up turns> <timed turns>`. Fails when the
 * floor and the build disagree on the newest messages.
 */
async function measureChild([target, size, warmUp, turns]: string[]): Promise<void> {
  const store = openScaleStore(JSON.parse(target as string));
  try {
    const measured = await measureTurns(store, { warmUp: Number(warmUp), turns: Number(turns) });
    if (!floorMatchesBuild(measured)) {
      throw new Error(
        `At ${size} messages the floor read ${JSON.stringify(measured.floorIds.slice(0, 5))}… ` +
          `but the build sent ${JSON.stringify(measured.sentIds.slice(0, 5))}…, newest first.`,
      );
    }
    const figures: ChildMeasurement = {
      buildMs: measured.buildMs,
      floorMs: measured.floorMs,
      firstBuildMs: measured.firstBuildMs,
      peakRssMb: process.resourceUsage().maxRSS / 1_024,
    };
    console.log(JSON.stringify(figures));
  } finally {
    await store.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'seed') await seedChild(rest);
else if (command === 'measure') await measureChild(rest);
else await runScale(parseScaleOptions(process.argv.slice(2)));
