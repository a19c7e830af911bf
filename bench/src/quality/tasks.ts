import {
  countMessageTokens,
  type Message,
  type TokenCounter,
  type ToolCallPart,
  type ToolResultPart,
} from '@ctxkit/context-core';
import { type SeededRandom, seededRandom } from '@ctxkit/context-core/testing';
import { loadToolOutputs, type OutputKind, type ToolOutput } from './tool-outputs.js';

/** Where in the conversation a fact was read. */
export type FactDepth = 'early' | 'middle' | 'late';

/** A marked fact: one line of a tool output that a later turn needs, found nowhere else in its task. */
export interface MarkedFact {
  /** `f1`, `f2`, … within the task. */
  readonly id: string;
  /** The line, exactly as the tool returned it (trimmed). */
  readonly text: string;
  /** The index of the tool message that holds it. */
  readonly messageIndex: number;
  /** Where in the conversation it sits. */
  readonly depth: FactDepth;
  /** The kind of output it comes from. */
  readonly kind: OutputKind;
}

/** A turn that needs a fact: its request must still reach it. */
export interface FactNeed {
  /** The fact's id. */
  readonly factId: string;
  /** The request's index in the task. */
  readonly turn: number;
}

/** One request of a task: the history it is made from, and when it is sent. */
export interface TaskTurn {
  /** The request is made from `messages.slice(0, historyLength)`. */
  readonly historyLength: number;
  /** When it is sent, in ms from the task's start. */
  readonly at: number;
}

/** A long agent task: the whole conversation, its requests, its marked facts and who needs them. */
export interface QualityTask {
  /** `task-01`, … */
  readonly id: string;
  /** What the task is about. */
  readonly theme: string;
  /** Every message, oldest first; the first is the user's instruction. */
  readonly messages: readonly Message[];
  /** One per model request, in order. */
  readonly turns: readonly TaskTurn[];
  /** The marked facts. */
  readonly facts: readonly MarkedFact[];
  /** Which turn needs which fact. */
  readonly needs: readonly FactNeed[];
}

/** Options of {@link buildTasks}. */
export interface BuildTasksOptions {
  /** How many tasks. */
  readonly count: number;
  /** The seed every choice derives from. */
  readonly seed: number;
  /** Counts the history while it grows. */
  readonly counter: TokenCounter;
  /** A task stops adding tool calls once its history holds this many tokens. */
  readonly targetTokens: number;
  /** The outputs to build from (`loadToolOutputs()` by default). */
  readonly outputs?: ReadonlyMap<OutputKind, ToolOutput[][]>;
}

/**
 * Builds `count` agent tasks from the captured tool outputs, the same for the same options: each
 * a user instruction, then assistant turns (short text and one or two tool calls) with the
 * outputs as results, until the history reaches `targetTokens`. Six facts per task, two read
 * early, two in the middle, two late, are asked for by user messages at later turns.
 *
 * @param options - the number of tasks, the seed, the counter and the target size
 * @returns the tasks
 */
export function buildTasks(options: BuildTasksOptions): QualityTask[] {
  const outputs = options.outputs ?? loadToolOutputs();
  const tasks: QualityTask[] = [];
  for (let index = 0; index < options.count; index++) {
    const random = seededRandom(options.seed * 1_000_003 + index * 7_919);
    const theme = THEMES[index % THEMES.length] as Theme;
    tasks.push(
      buildTask(`task-${String(index + 1).padStart(2, '0')}`, theme, random, outputs, options),
    );
  }
  return tasks;
}

// --- internal helpers ---

interface Theme {
  readonly name: string;
  readonly instruction: string;
  /** Kinds of outputs the task reads; earlier ones more often. */
  readonly kinds: readonly OutputKind[];
}

const THEMES: readonly Theme[] = [
  {
    name: 'dependency upgrade',
    instruction:
      'Upgrade the workspace to the newest patch releases of its dev dependencies. Read every package.json and the lockfile first, list what would change, run the affected test suites, and write a short upgrade note. Constraint: do not touch any runtime dependency of a published package, and keep pnpm-lock.yaml consistent with the manifests.',
    kinds: ['package', 'lockfile', 'package', 'lockfile', 'tests', 'git-diff', 'source'],
  },
  {
    name: 'failing test',
    instruction:
      'A test run on CI reported a failure around token counting and the prompt-cache simulation. Find which change introduced it, read the code involved and the test output, and propose the smallest fix with a regression test. Constraint: keep every public export unchanged and quote file paths and line numbers in your answer.',
    kinds: ['tests', 'source', 'source', 'git-diff', 'git-log', 'tests'],
  },
  {
    name: 'history review',
    instruction:
      'Review the last fifty commits of this repository for the release notes: group them by package, read the larger diffs, and flag anything that changes a public API or a default. Constraint: cite commit hashes for every item and do not summarise commits you have not read.',
    kinds: ['git-log', 'git-diff', 'git-log', 'source', 'package'],
  },
  {
    name: 'incident',
    instruction:
      'Staging returned 502s overnight. Go through the container logs and the inspect output, find the first error and what it cascaded into, and check the code paths that handle retries. Constraint: do not restart anything; report timestamps in UTC exactly as logged.',
    kinds: ['log', 'log', 'json', 'log', 'source', 'git-log'],
  },
  {
    name: 'design translation',
    instruction:
      '请阅读 docs/design 下的中文设计文档，对照当前代码实现，整理出已实现和未实现的部分，并用英文写一份摘要。Constraint: keep the Chinese terms in parentheses the first time each appears, and check every claim against the source files.',
    kinds: ['cjk', 'source', 'cjk', 'package', 'tests', 'source'],
  },
];

/** The lines a fact prefers, by kind: the values a later turn would ask for. */
const FACT_LINES: Readonly<Record<OutputKind, RegExp>> = {
  source: /^export (async function|function|const|interface|type|class) \w+/,
  package: /"[@\w./-]+": "[\^~]?\d/,
  lockfile: /^\s+'?[@\w./-]+@\d+\.\d+\.\d+/,
  log: /error|warn|fatal|exception|timeout|refused/i,
  json: /"(Status|Image|Error|ExitCode|RestartCount|StartedAt|Name|Health)"/,
  'git-log': /^commit [0-9a-f]{40}$|^ {4}\S/,
  'git-diff': /^[+-](?![+-]{2})\s*\S.{20,}/,
  tests: /✓|✗|×|FAIL|passed/,
  cjk: /[\u3040-\u30ff\u4e00-\u9fff]{6,}/,
};

const FACT_HINTS: Readonly<Record<OutputKind, string>> = {
  source: 'a declaration',
  package: 'a dependency and its version',
  lockfile: 'a package entry',
  log: 'a log line',
  json: 'a field',
  'git-log': 'a commit line',
  'git-diff': 'a changed line',
  tests: 'a test result line',
  cjk: '设计文档中的原句',
};

const STEP_TEXTS: Readonly<Record<OutputKind, readonly string[]>> = {
  source: [
    'Reading the implementation.',
    'Let me look at how this is written.',
    'Checking the source.',
  ],
  package: ['Checking the package manifest.', 'Reading the dependencies.'],
  lockfile: ['Looking at the lockfile entries.', 'Reading what the lockfile resolves.'],
  log: ['Reading the container log.', 'Looking for the first error in this log.'],
  json: ['Inspecting the containers.', 'Reading the container state.'],
  'git-log': ['Listing the commits.', 'Reading the history.'],
  'git-diff': ['Reading the diff of this commit.', 'Looking at what this commit changed.'],
  tests: ['Running the tests.', 'Checking the test output.'],
  cjk: ['阅读设计文档。', 'Reading the design note.'],
};

interface Step {
  readonly outputs: readonly ToolOutput[];
}

function buildTask(
  id: string,
  theme: Theme,
  random: SeededRandom,
  outputs: ReadonlyMap<OutputKind, ToolOutput[][]>,
  options: BuildTasksOptions,
): QualityTask {
  const steps = planSteps(theme, random, outputs, options);
  const facts = chooseFacts(steps, theme, random);
  const last = steps.length;
  const needsByStep = new Map<number, PlannedFact[]>();
  const need = (fact: PlannedFact, step: number) => {
    const list = needsByStep.get(step) ?? [];
    list.push(fact);
    needsByStep.set(step, list);
  };
  for (const fact of facts) {
    if (fact.depth === 'early') {
      need(fact, Math.round(last * 0.7));
      need(fact, last);
    } else if (fact.depth === 'middle') {
      need(fact, Math.round(last * 0.9));
    } else {
      need(fact, Math.min(last, fact.step + 3));
    }
  }

  const messages: Message[] = [{ role: 'user', content: theme.instruction }];
  const turns: TaskTurn[] = [];
  const needs: FactNeed[] = [];
  const marked: MarkedFact[] = [];
  let at = 0;
  for (let step = 0; step <= last; step++) {
    const asked = needsByStep.get(step) ?? [];
    if (asked.length > 0) {
      const questions = asked.map(
        (fact) =>
          `Quote exactly line ${fact.line} of the output of \`${fact.output.label}\` that you read earlier (${FACT_HINTS[fact.kind]}).`,
      );
      messages.push({ role: 'user', content: `Before you go on:\n- ${questions.join('\n- ')}` });
      at += random.integer(15_000, 40_000);
    }
    for (const fact of asked) needs.push({ factId: fact.id, turn: turns.length });
    turns.push({ historyLength: messages.length, at });
    at += random.integer(2_000, 8_000);
    if (step === last) {
      messages.push({ role: 'assistant', content: 'Done: the answer and the evidence are above.' });
      break;
    }
    const { calls, results } = stepParts(steps[step] as Step, `${id}-call-${step}`);
    const kind = (steps[step] as Step).outputs[0]?.kind as OutputKind;
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: random.pick(STEP_TEXTS[kind]) }, ...calls],
    });
    messages.push({ role: 'tool', content: results });
    for (const fact of facts) {
      if (fact.step === step) {
        marked.push({
          id: fact.id,
          text: fact.text,
          messageIndex: messages.length - 1,
          depth: fact.depth,
          kind: fact.kind,
        });
      }
    }
  }
  return { id, theme: theme.name, messages, turns, facts: marked, needs };
}

/** Tool calls until the history reaches the target, each reading a page no earlier step read. */
function planSteps(
  theme: Theme,
  random: SeededRandom,
  outputs: ReadonlyMap<OutputKind, ToolOutput[][]>,
  options: BuildTasksOptions,
): Step[] {
  const steps: Step[] = [];
  const used = new Set<ToolOutput>();
  let tokens = 0;
  const nextPages = (): ToolOutput[] => {
    const kind = random.pick(theme.kinds);
    const documents = outputs.get(kind) ?? [];
    const fresh = documents.filter((pages) => pages.some((page) => !used.has(page)));
    const document = random.pick(fresh.length > 0 ? fresh : documents);
    const unread = document.filter((page) => !used.has(page));
    const first = random.integer(0, Math.max(0, unread.length - 1));
    return unread.slice(first, first + random.integer(1, 2));
  };
  while (tokens < options.targetTokens) {
    const pages = nextPages();
    for (const page of pages) used.add(page);
    const small = pages.length === 1 && (pages[0] as ToolOutput).text.length < 3_000;
    if (small && random.next() < 0.3) {
      // Two small reads in parallel, as agents do.
      const more = nextPages()
        .slice(0, 1)
        .filter((page) => !used.has(page) && page.text.length < 3_000);
      for (const page of more) used.add(page);
      steps.push({ outputs: [...pages, ...more] });
    } else {
      for (const page of pages) steps.push({ outputs: [page] });
    }
    for (const page of pages) {
      tokens += countMessageTokens({ role: 'user', content: page.text }, options.counter);
    }
  }
  return steps;
}

interface PlannedFact {
  readonly id: string;
  readonly text: string;
  readonly step: number;
  readonly line: number;
  readonly depth: FactDepth;
  readonly kind: OutputKind;
  readonly output: ToolOutput;
}

/** Two facts per depth: unique lines of outputs read in that part of the task. */
function chooseFacts(steps: readonly Step[], theme: Theme, random: SeededRandom): PlannedFact[] {
  const everything = [
    theme.instruction,
    ...steps.flatMap((step) => step.outputs.map((o) => o.text)),
  ].join('\n');
  const bands: [FactDepth, number, number][] = [
    ['early', 0, 0.2],
    ['middle', 0.4, 0.6],
    ['late', 0.7, 0.85],
  ];
  const facts: PlannedFact[] = [];
  for (const [depth, from, to] of bands) {
    const candidates: number[] = [];
    for (let step = Math.floor(steps.length * from); step < Math.ceil(steps.length * to); step++) {
      candidates.push(step);
    }
    let chosen = 0;
    while (chosen < 2 && candidates.length > 0) {
      const step = candidates.splice(random.integer(0, candidates.length - 1), 1)[0] as number;
      const output = (steps[step] as Step).outputs[0] as ToolOutput;
      const line = factLine(output, everything, random);
      if (line === undefined) continue;
      facts.push({
        id: `f${facts.length + 1}`,
        text: line.text,
        step,
        line: line.number,
        depth,
        kind: output.kind,
        output,
      });
      chosen++;
    }
  }
  return facts;
}

/** A line of `output` that occurs once in the whole task, preferring the kind's typical lines. */
function factLine(
  output: ToolOutput,
  everything: string,
  random: SeededRandom,
): { text: string; number: number } | undefined {
  const lines = output.text
    .split('\n')
    .map((text, index) => ({ text: text.trim(), number: index + 1 }));
  const unique = lines.filter(
    ({ text }) =>
      text.length >= 24 &&
      text.length <= 200 &&
      everything.indexOf(text) === everything.lastIndexOf(text),
  );
  const preferred = unique.filter(({ text }) => FACT_LINES[output.kind].test(text));
  const pool = preferred.length > 0 ? preferred : unique;
  return pool.length === 0 ? undefined : random.pick(pool);
}

function stepParts(
  step: Step,
  callPrefix: string,
): { calls: ToolCallPart[]; results: ToolResultPart[] } {
  const calls: ToolCallPart[] = [];
  const results: ToolResultPart[] = [];
  step.outputs.forEach((output, index) => {
    const toolCallId = `${callPrefix}-${index}`;
    calls.push({
      type: 'tool-call',
      toolCallId,
      toolName: output.toolName,
      input: { ...output.input },
    });
    results.push({
      type: 'tool-result',
      toolCallId,
      toolName: output.toolName,
      output: output.text,
    });
  });
  return { calls, results };
}
