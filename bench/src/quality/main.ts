import { fileURLToPath } from 'node:url';
import { QUALITY_COUNTER, QUALITY_SYSTEM, QUALITY_TOOLS } from './agent-setup.js';
import { terminalTable, writeQualityReport } from './report.js';
import { ANTHROPIC_MODEL, OPENAI_MODEL, runQuality } from './run-quality.js';
import { KEEP_LAST_MESSAGES, STRATEGIES } from './strategies.js';
import { buildTasks } from './tasks.js';

/** The window every request must fit: system, tools and messages. */
const WINDOW = 16_000;
/** Each task's history grows to this many tokens: four windows. */
const TARGET_TOKENS = 64_000;
const TASKS = 20;
const SEED = 1;

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

const started = performance.now();
const tasks = buildTasks({
  count: TASKS,
  seed: SEED,
  counter: QUALITY_COUNTER,
  targetTokens: TARGET_TOKENS,
});
const requests = tasks.reduce((sum, task) => sum + task.turns.length, 0);
const needs = tasks.reduce((sum, task) => sum + task.needs.length, 0);
console.log(
  `quality: ${tasks.length} tasks, ${requests} requests, ${needs} fact needs; window ${WINDOW} tokens`,
);
const results = await runQuality({
  tasks,
  strategies: STRATEGIES,
  counter: QUALITY_COUNTER,
  window: WINDOW,
  system: QUALITY_SYSTEM,
  tools: QUALITY_TOOLS,
  onProgress: (task, count, strategy) => console.log(`  ${strategy}: task ${task} of ${count}`),
});
const seconds = Math.round((performance.now() - started) / 100) / 10;
console.log(`\n${terminalTable(results)}\n`);
writeQualityReport(
  results,
  {
    tasks: tasks.length,
    requests,
    needs,
    window: WINDOW,
    targetTokens: TARGET_TOKENS,
    seed: SEED,
    counter: QUALITY_COUNTER.name,
    anthropicModel: ANTHROPIC_MODEL,
    openaiModel: OPENAI_MODEL,
    keepLast: KEEP_LAST_MESSAGES,
    seconds,
  },
  {
    json: root('bench/results/quality.json'),
    page: root('docs/quality-benchmark.md'),
    chart: root('docs/quality-benchmark.svg'),
    readme: root('README.md'),
  },
);
console.log(
  `quality: done in ${seconds} s; wrote bench/results/quality.json, docs/quality-benchmark.md and .svg, README.md`,
);
