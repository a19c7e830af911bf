import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { floorMatchesBuild, measureTurns } from '../src/scale/measure-turns.js';
import { SCALE_CONVERSATION } from '../src/scale/scale-cache.js';
import { scaleBatches, scaleHistory } from '../src/scale/scale-history.js';
import { parseScaleOptions } from '../src/scale/scale-options.js';
import { type ScaleRecord, scaleRecord, writeScaleResults } from '../src/scale/scale-results.js';
import { openScaleStore } from '../src/scale/scale-store.js';
import type { ScaleTarget } from '../src/scale/scale-target.js';
import { seedStore } from '../src/scale/seed-store.js';

const SIZES = [200, 2_000];
const RECORD_FIELDS = [
  'backend',
  'buildMs',
  'firstBuildMs',
  'floorMs',
  'messages',
  'peakRssMb',
  'xFloor',
];

const folder = mkdtempSync(join(tmpdir(), 'ctxkit-bench-scale-'));
const postgresUrl = inject('postgresUrl');
const admin =
  postgresUrl === '' ? undefined : new pg.Pool({ connectionString: postgresUrl, max: 1 });
let databases = 0;

afterAll(async () => {
  await admin?.end();
  rmSync(folder, { recursive: true, force: true });
});

/** A new, empty database of `backend`: a file in the test's folder, or a database of the server. */
async function emptyTarget(backend: ScaleTarget['backend']): Promise<ScaleTarget> {
  databases += 1;
  if (backend === 'sqlite') return { backend, filename: join(folder, `scale-${databases}.db`) };
  const name = `bench_scale_${process.pid}_${databases}`;
  await admin?.query(`create database ${name}`);
  return { backend, url: postgresUrl.replace(/\/postgres$/, `/${name}`) };
}

describe('the scale history', () => {
  it('is the same for the same seed, and cut to the size asked without a dangling call', () => {
    expect(scaleHistory(500)).toEqual(scaleHistory(500));
    expect(scaleHistory(500, 1)).not.toEqual(scaleHistory(500));
    for (const size of [1, 2, 3, 97, 500]) {
      const history = scaleHistory(size);
      expect(history).toHaveLength(size);
      const last = history[history.length - 1];
      const parts = typeof last?.content === 'string' ? [] : (last?.content ?? []);
      expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    }
    const batches = [...scaleBatches(2_000, 300)];
    expect(batches.flat()).toEqual(scaleHistory(2_000));
    expect(batches.slice(0, -1).every((batch) => batch.length >= 300)).toBe(true);
  });
});

describe('the scale options', () => {
  it('reads sizes with k and m, backends and turns, and names what it cannot use', () => {
    expect(parseScaleOptions(['--sizes', '1000,10k,1m', '--backends=sqlite'])).toEqual({
      sizes: [1_000, 10_000, 1_000_000],
      backends: ['sqlite'],
    });
    expect(parseScaleOptions(['--turns', '3']).turns).toBe(3);
    expect(() => parseScaleOptions(['--sizes', '10x'])).toThrow(/--sizes: "10x"/);
    expect(() => parseScaleOptions(['--backends', 'mysql'])).toThrow(/unknown backend "mysql"/);
    expect(() => parseScaleOptions(['--size', '3'])).toThrow(/Unknown option "--size"/);
  });
});

describe('floorMatchesBuild', () => {
  it('holds when the shorter list of newest ids starts the longer, and only then', () => {
    expect(floorMatchesBuild({ sentIds: ['9', '8', '7'], floorIds: ['9', '8'] })).toBe(true);
    expect(floorMatchesBuild({ sentIds: ['9'], floorIds: ['9', '8'] })).toBe(true);
    expect(floorMatchesBuild({ sentIds: ['9', '7'], floorIds: ['9', '8'] })).toBe(false);
    expect(floorMatchesBuild({ sentIds: ['8'], floorIds: ['9', '8'] })).toBe(false);
    expect(floorMatchesBuild({ sentIds: [], floorIds: ['9'] })).toBe(false);
  });
});

const backends: ScaleTarget['backend'][] = postgresUrl === '' ? ['sqlite'] : ['sqlite', 'postgres'];

describe.each(backends)('the scale harness on %s, at tiny sizes', (backend) => {
  const records: ScaleRecord[] = [];

  it.each(SIZES)(
    'seeds %i messages, and the floor reads the newest ids the build sends',
    async (size) => {
      const target = await emptyTarget(backend);
      const seeded = await seedStore(target, size, `${backend} ${size}`);
      expect(seeded.messages).toBe(size);
      const store = openScaleStore(target);
      try {
        expect(await store.provider.getHistory(SCALE_CONVERSATION)).toHaveLength(size);
        const measured = await measureTurns(store, { warmUp: 1, turns: 2 });
        expect(measured.turns).toBe(2);
        expect(floorMatchesBuild(measured)).toBe(true);
        // The floor reads the newest stored rows, contiguously. Three turns added six messages;
        // the last build ran before the last reply was appended.
        const stored = (await store.provider.getHistory(SCALE_CONVERSATION))
          .map((message) => message.id as string)
          .reverse();
        expect(stored).toHaveLength(size + 6);
        const newest = stored.slice(1);
        expect(measured.floorIds).toEqual(newest.slice(0, measured.floorIds.length));
        expect(measured.sentIds[0]).toBe(newest[0]);
        if (size === 2_000) expect(measured.sentIds.length).toBeLessThan(newest.length);
        records.push(
          scaleRecord(backend, size, {
            buildMs: measured.buildMs,
            floorMs: measured.floorMs,
            firstBuildMs: measured.firstBuildMs,
            peakRssMb: process.resourceUsage().maxRSS / 1_024,
          }),
        );
      } finally {
        await store.close();
      }
    },
  );

  it('writes one record per size with exactly the documented fields, keeping other rows', () => {
    const path = join(folder, `scale-${backend}.json`);
    const other = { ...(records[0] as ScaleRecord), messages: 7 };
    writeScaleResults([other], path);
    writeScaleResults(records, path);
    const written = JSON.parse(readFileSync(path, 'utf8')) as ScaleRecord[];
    expect(written.map((record) => record.messages)).toEqual([7, ...SIZES]);
    for (const record of written) {
      expect(Object.keys(record).sort()).toEqual(RECORD_FIELDS);
      expect(record.backend).toBe(backend);
      for (const field of ['buildMs', 'floorMs', 'firstBuildMs', 'peakRssMb', 'xFloor'] as const) {
        expect(record[field]).toBeGreaterThan(0);
      }
    }
    const sized = written.filter((record) => record.messages !== 7);
    for (const record of sized) {
      expect(record.xFloor).toBeCloseTo(record.buildMs / record.floorMs, 1);
    }
  });
});
