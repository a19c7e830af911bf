import type { CompressionReport } from '../context-compressor.js';
import { countMessageTokens, countTokens } from '../count-tokens.js';
import { groupUnits } from '../group-units.js';
import {
  isProtected,
  isSummary,
  type Message,
  type Part,
  type ToolResultPart,
} from '../message.js';
import { sameData } from '../same-data.js';
import { budgetLimit, type TokenBudget } from '../token-budget.js';
import type { TokenCounter } from '../token-counter.js';

/** One compression to check: what went in, what came out. */
export interface CompressionCase {
  input: readonly Message[];
  output: readonly Message[];
  report: CompressionReport;
  budget: TokenBudget;
  counter: TokenCounter;
}

/** A {@link CompressionCase} with its token totals counted once. */
export interface MeasuredCompressionCase extends CompressionCase {
  /** Tokens of the input. */
  inputTokens: number;
  /** Tokens of the output. */
  outputTokens: number;
  /** Tokens the output must fit. */
  limit: number;
}

/**
 * Counts a case's totals once, for the invariants to share.
 *
 * @param compression - the input, output, report, budget and counter of one compression
 * @returns the case with its totals and limit
 * @throws BudgetError (`invalid_budget`) for a malformed budget
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function measureCompressionCase(compression: CompressionCase): MeasuredCompressionCase {
  return {
    ...compression,
    inputTokens: countTokens(compression.input, compression.counter),
    outputTokens: countTokens(compression.output, compression.counter),
    limit: budgetLimit(compression.budget),
  };
}

/**
 * Checks on a compression, each returning a description of the violation or `undefined`.
 * They encode the `ContextCompressor` contract and are what the conformance suite asserts.
 */
export const compressionInvariants = Object.freeze({
  /** The output fits the budget whenever the system, pinned and newest unit can; it is never empty for a non-empty input. */
  fitsBudget({
    input,
    output,
    counter,
    outputTokens,
    limit,
  }: MeasuredCompressionCase): string | undefined {
    if (input.length > 0 && output.length === 0) return 'a non-empty history came out empty';
    if (outputTokens <= limit || mandatoryTokens(input, counter) > limit) return undefined;
    return `output has ${outputTokens} tokens, over the limit of ${limit}`;
  },

  /** Every tool result has its call earlier in the output, a kept call keeps all its results, and every approval response has its request before it. */
  toolPairsIntact({ input, output }: MeasuredCompressionCase): string | undefined {
    const resultsInInput = new Set<string>();
    for (const message of input) for (const id of resultIds(message)) resultsInInput.add(id);
    const calls = new Set<string>();
    const results = new Set<string>();
    for (const [index, message] of output.entries()) {
      for (const id of callIds(message)) calls.add(id);
      for (const id of resultIds(message)) {
        if (!calls.has(id)) return `output ${index} holds result ${id} without its call before it`;
        results.add(id);
      }
    }
    for (const id of calls) {
      if (resultsInInput.has(id) && !results.has(id))
        return `call ${id} was kept without its result`;
    }
    const requested = new Set<string>();
    for (const [index, message] of output.entries()) {
      if (typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type === 'tool-approval-request') requested.add(part.approvalId);
        if (part.type === 'tool-approval-response' && !requested.has(part.approvalId))
          return `output ${index} answers approval ${part.approvalId} without its request before it`;
      }
    }
    return undefined;
  },

  /** Messages keep their relative order, ids come from the input (or mark a summary) and keep their roles. */
  orderKept({ input, output }: MeasuredCompressionCase): string | undefined {
    const position = new Map<string, number>();
    input.forEach((message, index) => {
      if (message.id !== undefined) position.set(message.id, index);
    });
    let previous = -1;
    for (const [index, message] of output.entries()) {
      if (message.id === undefined || !position.has(message.id)) {
        if (isSummary(message)) continue;
        return `output ${index} (id ${String(message.id)}) is not from the input and is not a summary`;
      }
      const at = position.get(message.id) as number;
      if (at <= previous) return `output ${index} (id ${message.id}) is out of order`;
      if (input[at]?.role !== message.role)
        return `output ${index} (id ${message.id}) changed role`;
      previous = at;
    }
    return undefined;
  },

  /** Every system and pinned message of the input is in the output. */
  protectedKept({ input, output }: MeasuredCompressionCase): string | undefined {
    const kept = new Set(output.map((message) => message.id));
    const lost = input.find((message) => isProtected(message) && !kept.has(message.id));
    return lost ? `protected message ${lost.id} (${lost.role}) was dropped` : undefined;
  },

  /** The input's first user message is in the output (cut short, perhaps, but there). */
  firstUserKept({ input, output }: MeasuredCompressionCase): string | undefined {
    const first = input.find((message) => message.role === 'user');
    if (first === undefined) return undefined;
    return output.some((message) => message.id === first.id)
      ? undefined
      : `the first user message ${first.id} was dropped`;
  },

  /** The output never has more tokens than the input. */
  neverGrows({ inputTokens, outputTokens }: MeasuredCompressionCase): string | undefined {
    return outputTokens > inputTokens
      ? `output grew from ${inputTokens} to ${outputTokens} tokens`
      : undefined;
  },

  /** A history that already fits comes back with the same content. */
  unchangedWhenFits({
    input,
    output,
    inputTokens,
    limit,
  }: MeasuredCompressionCase): string | undefined {
    if (inputTokens > limit) return undefined;
    return sameData(output, input) ? undefined : 'a history that fits was changed';
  },

  /**
   * What survives is what went in, or a documented replacement. A kept message keeps its
   * `providerOptions`. Every image, file, reasoning, tool call, approval and opaque part of the
   * output is deep-equal to a part of its input message (sealed reasoning is never edited; a
   * removed part may leave a text part in its place). A tool result keeps its call id, name,
   * `isError` and `providerOptions`; its output is the input's, a string (cut or masked), or
   * content whose images and files are the input's and whose other items are text.
   */
  partsFaithful({ input, output }: MeasuredCompressionCase): string | undefined {
    const byId = new Map<string, Message>();
    for (const message of input) if (message.id !== undefined) byId.set(message.id, message);
    for (const [index, message] of output.entries()) {
      const original = message.id === undefined ? undefined : byId.get(message.id);
      if (original === undefined || isSummary(message)) continue;
      if (!sameData(message.providerOptions, original.providerOptions)) {
        return `output ${index} (id ${message.id}) changed its providerOptions`;
      }
      if (typeof message.content === 'string') continue;
      const before = typeof original.content === 'string' ? [] : original.content;
      for (const [at, part] of message.content.entries()) {
        const problem = partProblem(part, before);
        if (problem !== undefined)
          return `output ${index} (id ${message.id}), part ${at}: ${problem}`;
      }
    }
    return undefined;
  },

  /**
   * Counts written on messages the compressor made are the counts the counter gives. A message
   * passed through as the same object keeps whatever fields the caller gave it.
   */
  cachedCountsTrue({ input, output, counter }: MeasuredCompressionCase): string | undefined {
    const passedThrough = new Set(input);
    for (const [index, message] of output.entries()) {
      if (message.tokenCounter !== counter.name || passedThrough.has(message)) continue;
      const { tokens, tokenCounter: _name, ...fresh } = message;
      const actual = countMessageTokens(fresh, counter);
      if (tokens !== actual) return `output ${index} caches ${tokens} tokens but has ${actual}`;
    }
    return undefined;
  },

  /**
   * The report's counts are those of the input and output, and its steps chain up. Input
   * messages reported uncounted are messages the output dropped, and `originalTokens` is the
   * input's tokens less theirs (checked as lying between the least and the most that many dropped
   * messages can weigh); only the first step has any.
   */
  reportTrue({
    input,
    output,
    report,
    inputTokens,
    outputTokens,
    limit,
    counter,
  }: MeasuredCompressionCase): string | undefined {
    const uncounted = report.uncountedMessages ?? 0;
    const expected: Partial<CompressionReport> = {
      originalCount: input.length,
      compressedCount: output.length,
      ...(uncounted === 0 ? { originalTokens: inputTokens } : {}),
      estimatedTokens: outputTokens,
      budgetTokens: limit,
    };
    for (const [key, value] of Object.entries(expected)) {
      const actual = report[key as keyof CompressionReport];
      if (actual !== value) return `report ${key} is ${String(actual)}, expected ${String(value)}`;
    }
    const uncountedProblem = uncountedTokensProblem(report, input, output, inputTokens, counter);
    if (uncountedProblem !== undefined) return uncountedProblem;
    if (report.steps.length === 0) return 'report has no steps';
    let tokens = report.originalTokens;
    for (const step of report.steps) {
      if (step.tokensBefore !== tokens)
        return `step ${step.name} starts at ${step.tokensBefore} tokens, expected ${tokens}`;
      if (step.tokensAfter > step.tokensBefore) return `step ${step.name} grew the history`;
      for (const field of ['truncated', 'masked', 'dropped', 'summarized'] as const) {
        if (!Number.isInteger(step[field]) || step[field] < 0)
          return `step ${step.name} has ${field} = ${step[field]}`;
      }
      tokens = step.tokensAfter;
    }
    if (tokens !== report.estimatedTokens)
      return `the last step ends at ${tokens}, not ${report.estimatedTokens}`;
    const dropped = report.steps.reduce((sum, step) => sum + step.dropped, 0);
    const summarized = report.steps.reduce((sum, step) => sum + step.summarized, 0);
    const added = output.filter(isSummary).length - input.filter(isSummary).length;
    if (summarized === 0 && input.length - dropped + Math.max(0, added) !== output.length) {
      return `steps report ${dropped} dropped, but ${input.length - output.length} messages are gone`;
    }
    return undefined;
  },
});

/**
 * Tokens of what a compressor must keep: system and pinned units plus the newest unit.
 *
 * @param messages - the history, oldest first
 * @param counter - the counter to count with
 * @returns the tokens
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function mandatoryTokens(messages: readonly Message[], counter: TokenCounter): number {
  const units = groupUnits(messages);
  let total = 0;
  units.forEach((unit, index) => {
    if (unit.protected || index === units.length - 1) total += countTokens(unit.messages, counter);
  });
  return total;
}

// --- internal helpers ---

/**
 * What is wrong with the report's uncounted messages, if anything: they must be among the input
 * messages the output does not hold, be reported by the first step alone, and weigh what
 * `originalTokens` leaves out of the input's tokens.
 */
function uncountedTokensProblem(
  report: CompressionReport,
  input: readonly Message[],
  output: readonly Message[],
  inputTokens: number,
  counter: TokenCounter,
): string | undefined {
  const uncounted = report.uncountedMessages ?? 0;
  if (!Number.isInteger(uncounted) || uncounted < 0)
    return `report uncountedMessages is ${uncounted}`;
  if ((report.steps[0]?.uncounted ?? 0) !== uncounted)
    return `the first step has ${report.steps[0]?.uncounted ?? 0} uncounted, the report ${uncounted}`;
  const later = report.steps.slice(1).find((step) => step.uncounted !== undefined);
  if (later !== undefined) return `step ${later.name}, not the first, has uncounted messages`;
  if (uncounted === 0) return undefined;
  const kept = new Set(output);
  const gone = input
    .filter((message) => !kept.has(message))
    .map((message) => countMessageTokens(message, counter))
    .sort((a, b) => a - b);
  if (uncounted > gone.length)
    return `report has ${uncounted} uncounted messages, but only ${gone.length} were dropped`;
  const left = inputTokens - report.originalTokens;
  const least = gone.slice(0, uncounted).reduce((sum, tokens) => sum + tokens, 0);
  const most = gone.slice(-uncounted).reduce((sum, tokens) => sum + tokens, 0);
  if (left < least || left > most) {
    return `report leaves ${left} tokens of ${uncounted} uncounted messages out, but they weigh ${least} to ${most}`;
  }
  return undefined;
}

/** Why `part` is neither one of `before` nor a documented replacement of one, if it is not. */
function partProblem(part: Part, before: readonly Part[]): string | undefined {
  if (part.type === 'text' || before.some((original) => sameData(original, part))) return undefined;
  if (part.type !== 'tool-result')
    return `a ${part.type} part that is not deep-equal to an input part`;
  const original = before.find(
    (candidate): candidate is ToolResultPart =>
      candidate.type === 'tool-result' && candidate.toolCallId === part.toolCallId,
  );
  if (original === undefined) return `tool result ${part.toolCallId} is not from the input`;
  for (const field of ['toolName', 'isError', 'providerOptions'] as const) {
    if (!sameData(part[field], original[field]))
      return `tool result ${part.toolCallId} changed ${field}`;
  }
  const output = part.output;
  if (typeof output === 'string') return undefined;
  if (output.type === 'json')
    return `tool result ${part.toolCallId} has a JSON output that is not the input's`;
  const media =
    typeof original.output === 'object' && original.output.type === 'content'
      ? original.output.value
      : [];
  const foreign = output.value.find(
    (item) => item.type !== 'text' && !media.some((candidate) => sameData(candidate, item)),
  );
  return foreign === undefined
    ? undefined
    : `tool result ${part.toolCallId} holds a ${foreign.type} that is not the input's`;
}

function callIds(message: Message): string[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
}

function resultIds(message: Message): string[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []));
}
