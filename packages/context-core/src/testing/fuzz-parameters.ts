/**
 * The seed every property test uses when `CTXKIT_FUZZ_SEED` is not set, so that a plain test run
 * checks the same cases on every machine and every run.
 */
export const DEFAULT_FUZZ_SEED = 20_261_124;

/** What {@link fuzzParameters} gives fast-check: the seed and how many random cases to try. */
export interface FuzzParameters {
  /** fast-check's seed: `CTXKIT_FUZZ_SEED`, or {@link DEFAULT_FUZZ_SEED}. */
  seed: number;
  /** Random cases to try. */
  numRuns: number;
}

/**
 * Seed and run count for one property test. Without environment variables the seed is fixed and
 * the count is `defaultRuns`, so the test is deterministic. `CTXKIT_FUZZ_SEED=<integer>` replays
 * (or explores) another seed; `CTXKIT_FUZZ_RUNS=<n>` runs every property `n` times, and
 * `CTXKIT_FUZZ_RUNS=<k>x` multiplies each property's own count by `k` (`pnpm fuzz` uses `10x`).
 * fast-check prints the seed of any failure, so it can be replayed with `CTXKIT_FUZZ_SEED`.
 *
 * @param defaultRuns - cases this property tries in a plain test run; a positive integer
 * @returns the parameters to spread into `fc.assert(property, { ...fuzzParameters(100) })`
 * @throws Error when `defaultRuns` or one of the variables is not a valid number
 */
export function fuzzParameters(defaultRuns: number): FuzzParameters {
  if (!Number.isInteger(defaultRuns) || defaultRuns < 1) {
    throw new Error(`fuzzParameters: defaultRuns must be a positive integer, got ${defaultRuns}`);
  }
  return { seed: fuzzSeed(), numRuns: fuzzRuns(defaultRuns) };
}

/**
 * The seed from `CTXKIT_FUZZ_SEED`, or the fixed default.
 *
 * @returns the seed, as a 32-bit integer
 * @throws Error when `CTXKIT_FUZZ_SEED` is set to something other than an integer
 */
export function fuzzSeed(): number {
  const raw = environmentVariable('CTXKIT_FUZZ_SEED');
  if (raw === undefined) return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`CTXKIT_FUZZ_SEED must be an integer, got ${JSON.stringify(raw)}`);
  }
  // fast-check seeds are 32-bit; fold larger integers the way it would.
  return seed | 0;
}

/** `defaultRuns`, replaced or multiplied by `CTXKIT_FUZZ_RUNS`. */
function fuzzRuns(defaultRuns: number): number {
  const raw = environmentVariable('CTXKIT_FUZZ_RUNS');
  if (raw === undefined) return defaultRuns;
  const match = /^(\d+)(x?)$/.exec(raw.trim());
  const value = match ? Number(match[1]) : Number.NaN;
  if (!match || value < 1) {
    throw new Error(
      `CTXKIT_FUZZ_RUNS must be a run count such as 500 or a factor such as 10x, got ${JSON.stringify(raw)}`,
    );
  }
  return match[2] === 'x' ? defaultRuns * value : value;
}

/** An environment variable where the runtime has them (Node, Deno, Bun); none elsewhere. */
function environmentVariable(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const value = env?.[name];
  return value === undefined || value === '' ? undefined : value;
}
