import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';

/**
 * A vitest pool that runs this package's test files in a child process on the Node 22 binary of
 * the `node` devDependency (the AI SDK 7 declares Node >= 22), while vitest itself runs on
 * whatever Node started it. The worker is vitest's own `forks` worker; only the binary differs.
 *
 * @returns the pool, for `test.pool`
 */
export function node22Pool(): PoolRunnerInitializer {
  const require = createRequire(import.meta.url);
  const execPath = resolve(require.resolve('node/package.json'), '..', 'bin', 'node');
  return {
    name: 'node22-forks',
    createPoolWorker: (options) => new Node22Worker(options, execPath),
  };
}

class Node22Worker implements PoolWorker {
  readonly name = 'node22-forks';
  readonly cacheFs = true;
  private child: ChildProcess | undefined;

  constructor(
    private readonly options: PoolOptions,
    private readonly execPath: string,
  ) {}

  on(event: string, callback: (arg: unknown) => void): void {
    this.started.on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.started.off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.started.send(message);
  }

  async start(): Promise<void> {
    const logger = this.options.project.vitest.logger;
    this.child ??= fork(resolve(this.options.distPath, 'workers/forks.js'), [], {
      execPath: this.execPath,
      env: this.options.env,
      execArgv: this.options.execArgv,
      stdio: 'pipe',
      serialization: 'advanced',
    });
    this.child.stdout?.pipe(logger.outputStream, { end: false });
    this.child.stderr?.pipe(logger.errorStream, { end: false });
  }

  async stop(): Promise<void> {
    const child = this.started;
    const exited = new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) done();
      else child.once('exit', () => done());
    });
    child.kill();
    await exited;
    this.child = undefined;
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private get started(): ChildProcess {
    if (this.child === undefined) throw new Error('The Node 22 test worker was not started.');
    return this.child;
  }
}
