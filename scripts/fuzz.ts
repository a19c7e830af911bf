/**
 * `pnpm fuzz`: every property test with a fresh random seed and ten times its usual runs. Prints
 * the seed first and again on failure, so that `CTXKIT_FUZZ_SEED=<seed> pnpm test` replays it.
 * A seed given in CTXKIT_FUZZ_SEED is used instead of a random one; arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const seed = process.env.CTXKIT_FUZZ_SEED ?? String(randomInt(-(2 ** 31), 2 ** 31));
const runs = process.env.CTXKIT_FUZZ_RUNS ?? '10x';
console.log(`fuzz: seed ${seed}, runs ${runs}`);

const started = Date.now();
const result = spawnSync('vitest', ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CTXKIT_FUZZ_SEED: seed, CTXKIT_FUZZ_RUNS: runs },
});
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (result.status === 0) {
  console.log(`fuzz: passed with seed ${seed} in ${minutes} min`);
} else {
  console.error(
    `fuzz: FAILED with seed ${seed} after ${minutes} min; replay with CTXKIT_FUZZ_SEED=${seed} CTXKIT_FUZZ_RUNS=${runs} pnpm fuzz`,
  );
}
process.exit(result.status ?? 1);
