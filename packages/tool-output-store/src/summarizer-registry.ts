import { InvalidOptionError, type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { summarizeHeadTail } from './summarize-head-tail.js';
import { summarizeInspect } from './summarize-inspect.js';
import { summarizeList } from './summarize-list.js';
import { summarizeLogs } from './summarize-logs.js';
import { SOURCE } from './tool-output-store-source.js';
import type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Which tools a summarizer is for: a tool name, a pattern of names, or a test on the name. */
export type SummarizerMatch = string | RegExp | ((toolName: string) => boolean);

/** Summarizers by tool; {@link createSummarizerRegistry} makes one. */
export interface SummarizerRegistry {
  /**
   * Adds a summarizer for the tools `match` selects; it wins over every earlier one.
   *
   * @param match - a tool name, a pattern of names or a test on the name
   * @param summarizer - the summarizer for those tools
   * @returns the registry, to chain calls
   * @throws InvalidOptionError (`invalid_option`) when `summarizer` is not a function, or `match`
   *   is not a non-empty tool name, a RegExp or a function; nothing is registered then
   */
  register(match: SummarizerMatch, summarizer: ToolOutputSummarizer): SummarizerRegistry;
  /**
   * The summarizer for a tool: the latest registered that matches, else the fallback.
   *
   * @param toolName - the tool's name
   * @returns its summarizer
   */
  summarizerFor(toolName: string): ToolOutputSummarizer;
  /**
   * Summarizes one output with {@link SummarizerRegistry.summarizerFor}; a summarizer that throws
   * or returns no string gives way to the fallback (to head and tail when the one that failed is
   * the fallback).
   *
   * @param input - the output, its lines and the tool call it answers
   * @returns the summary
   */
  summarize(input: SummaryInput): string;
}

/** Options of {@link createSummarizerRegistry}. */
export interface SummarizerRegistryOptions {
  /**
   * Register the built-in summarizers for lists, inspects and logs.
   * @default true
   */
  builtIns?: boolean;
  /**
   * For tools nothing else matches.
   * @default `summarizeHeadTail()`
   */
  fallback?: ToolOutputSummarizer;
}

/**
 * A registry of summarizers per tool, to which users add their own. The built-ins match tool names
 * by their words (separated by `_`, `-` or `.`): `list` or `ls` → {@link summarizeList}, `inspect`
 * or `describe` → {@link summarizeInspect}, `log` or `logs` → {@link summarizeLogs}; anything else
 * gets `fallback`, head and tail. What you register wins over the built-ins:
 * `registry.register('get_weather', summarizeInspect({ fields: ['temp'] }))`.
 *
 * @param options - whether to register the built-ins, and the fallback
 * @returns the registry
 * @throws InvalidOptionError (`invalid_option`) at creation when `fallback` is not a function
 */
export function createSummarizerRegistry(
  options: SummarizerRegistryOptions = {},
): SummarizerRegistry {
  optionChecker(SOURCE, 'createSummarizerRegistry').knownKeys(options, OPTION_KEYS);
  const fallback = options.fallback ?? summarizeHeadTail();
  assertFunction(fallback, 'fallback');
  const entries: { test: (toolName: string) => boolean; summarizer: ToolOutputSummarizer }[] = [];
  const registry: SummarizerRegistry = {
    register(match, summarizer) {
      assertFunction(summarizer, 'summarizer');
      entries.unshift({ test: matcher(match), summarizer });
      return registry;
    },
    summarizerFor(toolName) {
      return entries.find((entry) => entry.test(toolName))?.summarizer ?? fallback;
    },
    summarize(input) {
      const summarizer = registry.summarizerFor(input.toolName);
      try {
        const summary = summarizer(input);
        if (typeof summary === 'string') return summary;
      } catch {
        // A summarizer must not throw; the output is still offloaded, with its head and tail.
      }
      return summarizer === fallback ? summarizeHeadTail()(input) : fallback(input);
    },
  };
  if (options.builtIns ?? true) {
    registry.register(words('list', 'ls'), summarizeList());
    registry.register(words('inspect', 'describe'), summarizeInspect({ fallback }));
    registry.register(words('log', 'logs'), summarizeLogs());
  }
  return Object.freeze(registry);
}

// --- internal helpers ---

function words(...names: string[]): RegExp {
  return new RegExp(`(?:^|[_.-])(?:${names.join('|')})(?:$|[_.-])`, 'i');
}

function matcher(match: SummarizerMatch): (toolName: string) => boolean {
  if (typeof match === 'string' && match.length > 0) return (toolName) => toolName === match;
  if (match instanceof RegExp) {
    const pattern = new RegExp(match.source, match.flags.replace(/[gy]/g, ''));
    return (toolName) => pattern.test(toolName);
  }
  if (typeof match === 'function') return (toolName) => match(toolName) === true;
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `A summarizer match must be a tool name, a RegExp or a function, got ${JSON.stringify(match) ?? String(match)}.`,
  });
}

function assertFunction(value: unknown, name: string): void {
  if (typeof value === 'function') return;
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `Option ${name} must be a summarizer function, got ${typeof value}.`,
    details: { option: name },
  });
}

const OPTION_KEYS = Object.freeze({
  builtIns: true,
  fallback: true,
} satisfies OptionKeys<SummarizerRegistryOptions>);
