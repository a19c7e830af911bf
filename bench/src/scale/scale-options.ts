import { SCALE_BACKENDS, type ScaleBackend } from './scale-target.js';

/** What `pnpm bench:scale` runs. */
export interface ScaleOptions {
  /** Stored messages of each run, in order. */
  sizes: number[];
  /** Databases, in order. */
  backends: ScaleBackend[];
  /** Timed turns of every size, instead of 30 (see {@link turnCountsFor}). */
  turns?: number;
  /** Seed the cache for the sizes and backends, measure nothing. */
  seedOnly?: boolean;
}

/** Sizes run when `--sizes` is not given: 1,000,000 only when asked for. */
export const DEFAULT_SIZES = [1_000, 10_000, 100_000];

/**
 * Parses `--sizes 1000,10k,1m`, `--backends sqlite,postgres` and `--turns 30` (each also as
 * `--name=value`), and `--seed-only`.
 *
 * @throws Error naming the option and the value it could not use
 */
export function parseScaleOptions(args: readonly string[]): ScaleOptions {
  const options: ScaleOptions = { sizes: DEFAULT_SIZES, backends: [...SCALE_BACKENDS] };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--seed-only') {
      options.seedOnly = true;
      continue;
    }
    const [name, inline] = arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const value = inline ?? args[++index];
    if (value === undefined) throw new Error(`Option ${name} needs a value.`);
    if (name === '--sizes') {
      options.sizes = value.split(',').map((size) => parseCount(size, '--sizes'));
    } else if (name === '--backends') {
      options.backends = value.split(',').map((backend) => {
        if (!SCALE_BACKENDS.includes(backend as ScaleBackend)) {
          throw new Error(
            `Option --backends: unknown backend ${JSON.stringify(backend)}; known: ${SCALE_BACKENDS.join(', ')}.`,
          );
        }
        return backend as ScaleBackend;
      });
    } else if (name === '--turns') {
      options.turns = parseCount(value, '--turns');
    } else {
      throw new Error(
        `Unknown option ${JSON.stringify(name)}; known: --sizes 1000,10000, --backends sqlite,postgres, --turns 30, --seed-only.`,
      );
    }
  }
  return options;
}

/**
 * Untimed and timed turns of every size: 3 and 30 (a build reads about one window, whatever the
 * stored history). `turns` overrides the timed count.
 */
export function turnCountsFor(turns?: number): { warmUp: number; turns: number } {
  return { warmUp: 3, turns: turns ?? 30 };
}

/** A whole number of at least 1, with an optional `k` (thousand) or `m` (million) suffix. */
function parseCount(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replaceAll('_', ''));
  const value = match
    ? Number(match[1]) * ({ k: 1_000, m: 1_000_000 }[match[2]?.toLowerCase() ?? ''] ?? 1)
    : Number.NaN;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(
      `Option ${option}: ${JSON.stringify(text)} is not a whole number of at least 1.`,
    );
  }
  return value;
}
