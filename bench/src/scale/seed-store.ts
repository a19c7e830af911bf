import { SCALE_CONVERSATION } from './scale-cache.js';
import { scaleBatches } from './scale-history.js';
import { openScaleStore } from './scale-store.js';
import type { ScaleTarget } from './scale-target.js';

/** Messages per `append` while seeding: one transaction, its tokens counted before it. */
export const SEED_BATCH = 5_000;

/** How the seeding went. */
export interface SeedResult {
  /** Messages stored. */
  messages: number;
  /** Wall time, in milliseconds. */
  ms: number;
}

/**
 * Appends the first `count` messages of the scale history to an empty `target` through the
 * provider's `append`, in batches of {@link SEED_BATCH} (so every message is counted and every
 * unit start recorded, as in use), printing progress (messages per second, time left) to stderr
 * about every three seconds.
 */
export async function seedStore(
  target: ScaleTarget,
  count: number,
  label: string,
): Promise<SeedResult> {
  const store = openScaleStore(target);
  const started = performance.now();
  let stored = 0;
  let reported = started;
  try {
    for (const batch of scaleBatches(count, SEED_BATCH)) {
      await store.provider.append(SCALE_CONVERSATION, batch);
      stored += batch.length;
      const now = performance.now();
      if (now - reported >= 3_000 || stored === count) {
        reported = now;
        const rate = stored / ((now - started) / 1_000);
        process.stderr.write(
          `  seeding ${label}: ${stored.toLocaleString('en')} / ${count.toLocaleString('en')} messages, ` +
            `${Math.round(rate).toLocaleString('en')} messages/s, ETA ${duration((count - stored) / rate)}\n`,
        );
      }
    }
  } finally {
    await store.close();
  }
  return { messages: stored, ms: performance.now() - started };
}

/** Seconds as `1h 02m`, `3m 05s` or `12s`. */
export function duration(seconds: number): string {
  const whole = Math.round(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (whole >= 3_600)
    return `${Math.floor(whole / 3_600)}h ${pad(Math.floor((whole % 3_600) / 60))}m`;
  if (whole >= 60) return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
  return `${whole}s`;
}
