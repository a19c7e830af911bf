/** Timing of repeated runs of one function. */
export interface Measurement {
  /** Median time of one run, in milliseconds. */
  median: number;
  /** Fastest run, in milliseconds. */
  min: number;
  /** Number of runs. */
  runs: number;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Fewest runs; default 5. */
  minRuns?: number;
  /** Keep running until this many milliseconds have passed; default 500. */
  minTime?: number;
  /** Most runs; default 100,000. */
  maxRuns?: number;
}

/**
 * Runs `task` repeatedly (after one warm-up run) and returns the median and fastest times. With
 * `prepare`, each run's input is made by it first, outside the timed part (fresh objects for a
 * cold run, say).
 */
export async function measure<Input = undefined>(
  task: (input: Input) => unknown,
  options: MeasureOptions & { prepare?: () => Input } = {},
): Promise<Measurement> {
  const { minRuns = 5, minTime = 500, maxRuns = 100_000, prepare } = options;
  const next = () => (prepare ? prepare() : (undefined as Input));
  await task(next());
  const times: number[] = [];
  const started = performance.now();
  while (
    times.length < maxRuns &&
    (times.length < minRuns || performance.now() - started < minTime)
  ) {
    const input = next();
    const start = performance.now();
    await task(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)] as number,
    min: times[0] as number,
    runs: times.length,
  };
}

/** Prints a titled table of rows. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}
