/**
 * `pnpm fuzz`: every property test with a fresh random seed and ten times its usual runs. Prints
 * the seed first and again on failure, so that `CTXKIT_FUZZ_SEED=<seed> pnpm test` replays it,
 * and each test file's time as it ends (scripts/test-reporters/file-time-reporter.ts). A seed
 * given in CTXKIT_FUZZ_SEED is used instead of a random one; arguments go to vitest. SIGINT,
 * SIGTERM and SIGHUP are passed on to vitest, which stops its workers and servers, so that an
 * interrupted run leaves nothing running.
 */
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { constants } from 'node:os';
import { join } from 'node:path';

const seed = process.env.CTXKIT_FUZZ_SEED ?? String(randomInt(-(2 ** 31), 2 ** 31));
const runs = process.env.CTXKIT_FUZZ_RUNS ?? '10x';
console.log(`fuzz: seed ${seed}, runs ${runs}`);

const reporter = join(import.meta.dirname, 'test-reporters', 'file-time-reporter.ts');
const started = Date.now();
const vitest = spawn(
  'vitest',
  ['run', '--reporter=default', `--reporter=${reporter}`, ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, CTXKIT_FUZZ_SEED: seed, CTXKIT_FUZZ_RUNS: runs } },
);
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
for (const signal of signals) process.on(signal, () => vitest.kill(signal));

vitest.on('exit', (code, signal) => {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (code === 0) {
    console.log(`fuzz: passed with seed ${seed} in ${minutes} min`);
  } else {
    console.error(
      `fuzz: ${signal ? `stopped by ${signal}` : 'FAILED'} with seed ${seed} after ${minutes} min; replay with CTXKIT_FUZZ_SEED=${seed} CTXKIT_FUZZ_RUNS=${runs} pnpm fuzz`,
    );
  }
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1));
});
