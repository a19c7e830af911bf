/**
 * The entry of the browser bundle test: core's conformance kits against core's own
 * implementations, registered with vitest's runner (`@vitest/runner`) and run by it, inside the
 * bundle. It imports core only by its package names, as an application would.
 */
import {
  createInMemoryEventStore,
  createInMemoryHistoryStore,
  createInMemoryToolOutputStore,
  defineCompressor,
  groupUnits,
} from '@ctxkit/context-core';
import {
  kitCounter,
  testCompressor,
  testEventStore,
  testHistoryStore,
  testToolOutputStore,
} from '@ctxkit/context-core/testing';
import { startTests, type Task, type VitestRunner } from '@vitest/runner';

/** One test the kits registered, with how it ended. */
export interface KitTestResult {
  /** Suite and test names, joined by ` > `. */
  name: string;
  /** `pass`, `fail`, or `skip` / `todo` / `run` / `queued` when it did not finish. */
  state: string;
  /** Messages of the errors it failed with. */
  errors: string[];
}

/** Registers every kit of core against an implementation core ships. */
function registerKits(): void {
  testHistoryStore({
    name: 'in-memory history store',
    counter: kitCounter,
    create: async () => createInMemoryHistoryStore({ counter: kitCounter }),
  });
  testEventStore({ name: 'in-memory event store', create: async () => createInMemoryEventStore() });
  testToolOutputStore({
    name: 'in-memory tool output store',
    create: async () => createInMemoryToolOutputStore(),
    createShared: async () => createInMemoryToolOutputStore({ shareAcrossConversations: true }),
  });
  testCompressor({ name: 'keep only what must be kept', create: keepOnlyWhatMustBeKept });
}

/**
 * A trivial compressor that keeps the whole contract: the history as it is when it fits,
 * otherwise only the system and pinned units and the newest unit.
 */
function keepOnlyWhatMustBeKept() {
  return defineCompressor({
    name: 'keep only what must be kept',
    transform({ messages, limit, tokens }) {
      if (tokens <= limit) return { messages: [...messages] };
      const units = groupUnits(messages);
      const kept = units
        .filter((unit, index) => unit.protected || index === units.length - 1)
        .flatMap((unit) => unit.messages);
      return { messages: kept, dropped: messages.length - kept.length };
    },
  });
}

/** Collects and runs the kits' tests, and returns how each one ended. */
export async function runKits(): Promise<KitTestResult[]> {
  const runner: VitestRunner = {
    config: {
      root: '/',
      setupFiles: [],
      name: undefined,
      passWithNoTests: false,
      testNamePattern: undefined,
      allowOnly: false,
      sequence: { seed: 0, hooks: 'stack', setupFiles: 'list' },
      chaiConfig: undefined,
      maxConcurrency: 1,
      testTimeout: 120_000,
      hookTimeout: 30_000,
      retry: 0,
      includeTaskLocation: false,
      tags: [],
      tagsFilter: undefined,
      strictTags: false,
    },
    importFile: async () => registerKits(),
  };
  const files = await startTests(['core-kits'], runner);
  return files.flatMap((file) => testsOf(file, []));
}

/** The results of the tests under `task`, named by the suites above them in `path`. */
function testsOf(task: Task, path: string[]): KitTestResult[] {
  if (task.type === 'suite') {
    const inner = task.file === task ? path : [...path, task.name];
    const nested = task.tasks.flatMap((child) => testsOf(child, inner));
    // A suite that failed outside its tests (a hook, or collecting) reports itself.
    return task.result?.state === 'fail' && nested.every((test) => test.state !== 'fail')
      ? [...nested, resultOf(task, inner)]
      : nested;
  }
  return [resultOf(task, [...path, task.name])];
}

/** How `task` ended, under the name `path`. */
function resultOf(task: Task, path: string[]): KitTestResult {
  return {
    name: path.join(' > '),
    state: task.result?.state ?? task.mode,
    errors: (task.result?.errors ?? []).map((error) => String(error.message ?? error)),
  };
}
