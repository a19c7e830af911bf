/**
 * A vitest reporter that prints each test file's time as the file ends (project, path, state,
 * test time and collection time), and the ten slowest files after the run. `pnpm fuzz` runs it
 * beside vitest's default reporter, so that a long run shows where its time goes while it runs.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Files listed after the run, slowest first. */
const SLOWEST = 10;

/** Prints each test file's time when it ends, and the slowest files at the end. */
export default class FileTimeReporter implements Reporter {
  private readonly ended: { name: string; milliseconds: number }[] = [];

  /** Prints the file's line as soon as it ends. */
  onTestModuleEnd(testModule: TestModule): void {
    const { duration, collectDuration } = testModule.diagnostic();
    const name = `${testModule.project.name}: ${relative(process.cwd(), testModule.moduleId)}`;
    this.ended.push({ name, milliseconds: duration + collectDuration });
    const state = testModule.ok() ? 'passed' : 'FAILED';
    console.log(
      `file time: ${seconds(duration)} tests + ${seconds(collectDuration)} import, ${state}, ${name}`,
    );
  }

  /** Prints the slowest files. */
  onTestRunEnd(): void {
    const slowest = [...this.ended].sort((a, b) => b.milliseconds - a.milliseconds);
    console.log(`file time: the ${Math.min(SLOWEST, slowest.length)} slowest files`);
    for (const { name, milliseconds } of slowest.slice(0, SLOWEST)) {
      console.log(`file time: ${seconds(milliseconds).padStart(8)} ${name}`);
    }
  }
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
