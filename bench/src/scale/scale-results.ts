import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCALE_BACKENDS, type ScaleBackend } from './scale-target.js';

/** Where `pnpm bench:scale` writes its records: `bench/results/scale.json`. */
export const SCALE_RESULTS = fileURLToPath(new URL('../../results/scale.json', import.meta.url));

/** One record of `bench/results/scale.json`: one backend at one size. */
export interface ScaleRecord {
  /** The database. */
  backend: ScaleBackend;
  /** Messages stored in the conversation before the measured turns. */
  messages: number;
  /** Median time of one build, per turn, in milliseconds. */
  buildMs: number;
  /** Peak resident memory of the measuring process, in MiB. */
  peakRssMb: number;
  /** Median time of one floor read (newest rows until the window is covered), in milliseconds. */
  floorMs: number;
  /** `buildMs / floorMs`. */
  xFloor: number;
  /**
   * Time of the process's first build, in milliseconds: nothing remembered from an earlier build
   * (the provider's read caches, counts, hashes and validations all cold), as after a restart.
   */
  firstBuildMs: number;
}

/** The record of one backend and size, its figures rounded to what a timing can tell. */
export function scaleRecord(
  backend: ScaleBackend,
  messages: number,
  figures: { buildMs: number; floorMs: number; firstBuildMs: number; peakRssMb: number },
): ScaleRecord {
  return {
    backend,
    messages,
    buildMs: round(figures.buildMs, 3),
    peakRssMb: round(figures.peakRssMb, 1),
    floorMs: round(figures.floorMs, 3),
    xFloor: round(figures.buildMs / figures.floorMs, 2),
    firstBuildMs: round(figures.firstBuildMs, 3),
  };
}

/**
 * Writes `records` to `path` (a JSON array), keeping the records already there for other
 * backends and sizes, so a run of a subset (`--sizes`, `--backends`) updates only its own rows.
 * Records are ordered by backend, then size.
 */
export function writeScaleResults(records: readonly ScaleRecord[], path = SCALE_RESULTS): void {
  const key = (record: ScaleRecord) => `${record.backend}:${record.messages}`;
  const merged = new Map<string, ScaleRecord>();
  if (existsSync(path)) {
    for (const record of JSON.parse(readFileSync(path, 'utf8')) as ScaleRecord[]) {
      merged.set(key(record), record);
    }
  }
  for (const record of records) merged.set(key(record), record);
  const ordered = [...merged.values()].sort(
    (a, b) =>
      SCALE_BACKENDS.indexOf(a.backend) - SCALE_BACKENDS.indexOf(b.backend) ||
      a.messages - b.messages,
  );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(ordered, null, 2)}\n`);
}

/** The table printed at the end of a run: one row per record. */
export function scaleTable(records: readonly ScaleRecord[]): Record<string, string | number>[] {
  return records.map((record) => ({
    backend: record.backend,
    messages: record.messages.toLocaleString('en'),
    buildMs: record.buildMs.toFixed(1),
    floorMs: record.floorMs.toFixed(2),
    'x floor': record.xFloor.toFixed(1),
    'first build': record.firstBuildMs.toFixed(1),
    peakRssMb: record.peakRssMb.toFixed(0),
  }));
}

/**
 * Per backend, how the build time grows from its smallest size to its largest in `records`
 * (`1,000,000 / 1,000` when both ran): one line each, or none for a backend run at one size.
 */
export function growthLines(records: readonly ScaleRecord[]): string[] {
  const lines: string[] = [];
  for (const backend of SCALE_BACKENDS) {
    const own = records
      .filter((record) => record.backend === backend)
      .sort((a, b) => a.messages - b.messages);
    const smallest = own[0];
    const largest = own[own.length - 1];
    if (smallest === undefined || largest === undefined || smallest === largest) continue;
    lines.push(
      `${backend}: build ${largest.messages.toLocaleString('en')} / ${smallest.messages.toLocaleString('en')} = ` +
        `${(largest.buildMs / smallest.buildMs).toFixed(1)}x, floor ${(largest.floorMs / smallest.floorMs).toFixed(1)}x, ` +
        `peak memory ${(largest.peakRssMb / smallest.peakRssMb).toFixed(1)}x`,
    );
  }
  return lines;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
