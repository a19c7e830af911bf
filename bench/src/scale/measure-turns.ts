import { createStandardAssembler } from '@ctxkit/assembler-standard';
import { createSimpleCompressor } from '@ctxkit/compressor-simple';
import type { Message } from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import { readFloor } from './floor.js';
import { SCALE_CONVERSATION } from './scale-cache.js';
import { turnInput, turnReply } from './scale-history.js';
import { SCALE_COUNTER, type ScaleStore } from './scale-store.js';

/** The model of every build: its window (128,000 tokens) comes from the model table. */
export const SCALE_MODEL = 'gpt-4o';

/** The system prompt of every build. */
export const SCALE_SYSTEM =
  'You are a coding agent. Read files, run commands and search the docs with your tools; answer briefly.';

/** How many turns to run. */
export interface TurnCounts {
  /** Turns run first and not timed. */
  warmUp: number;
  /** Turns timed. */
  turns: number;
}

/** Median times of the timed turns, and what the last turn's build sent and its floor read. */
export interface TurnMeasurement {
  /** Median time of one build, in milliseconds. */
  buildMs: number;
  /** Median time of one floor read, in milliseconds. */
  floorMs: number;
  /** Time of the first build, with nothing remembered from an earlier one, in milliseconds. */
  firstBuildMs: number;
  /** Turns timed. */
  turns: number;
  /** Ids of the stored messages the last build sent, newest first. */
  sentIds: string[];
  /** Ids of the messages the last floor read, newest first. */
  floorIds: string[];
}

/**
 * Runs agent turns on a seeded store as an application does: each appends a new user message,
 * builds one prompt through the pipeline the README's quick start wires (this store's provider,
 * the o200k counter, the simple compressor, the standard assembler, `gpt-4o`'s window), then
 * appends the assistant's reply. Each turn also reads the floor (the newest rows until their
 * stored tokens cover the history's budget of the build) on the same database; build and floor
 * take turns going first, so neither always finds the other's pages in the cache.
 */
export async function measureTurns(
  store: ScaleStore,
  counts: TurnCounts,
): Promise<TurnMeasurement> {
  const pipeline = createContextPipeline({
    provider: store.provider,
    counter: SCALE_COUNTER,
    compressor: createSimpleCompressor(),
    assembler: createStandardAssembler(),
    model: SCALE_MODEL,
  });
  const builds: number[] = [];
  const floors: number[] = [];
  let sent: Message[] = [];
  let read: Message[] = [];
  // The history's budget of the build, which the floor covers: the same every turn.
  let historyBudget = 0;
  let firstBuildMs = 0;
  for (let turn = 0; turn < counts.warmUp + counts.turns; turn += 1) {
    await store.provider.append(SCALE_CONVERSATION, turnInput(turn));
    const build = async () => {
      const start = performance.now();
      const result = await pipeline.build(SCALE_CONVERSATION, { system: SCALE_SYSTEM });
      const ms = performance.now() - start;
      sent = result.messages;
      historyBudget = result.historyBudget.maxTokens;
      return ms;
    };
    const floor = async () => {
      const start = performance.now();
      read = (await readFloor(store.readPage, historyBudget)).messages;
      return performance.now() - start;
    };
    let buildMs: number;
    let floorMs: number;
    if (turn % 2 === 0) {
      buildMs = await build();
      floorMs = await floor();
    } else {
      floorMs = await floor();
      buildMs = await build();
    }
    if (turn === 0) firstBuildMs = buildMs;
    if (turn >= counts.warmUp) {
      builds.push(buildMs);
      floors.push(floorMs);
    }
    await store.provider.append(SCALE_CONVERSATION, turnReply(turn));
  }
  return {
    buildMs: median(builds),
    floorMs: median(floors),
    firstBuildMs,
    turns: counts.turns,
    sentIds: idsNewestFirst(sent),
    floorIds: read.map((message) => message.id as string),
  };
}

/**
 * Whether the floor and the build agree on the newest messages: both hold some, and the shorter
 * of their id lists, newest first, is the start of the longer (the build reaches further back
 * when it truncates large outputs; the floor, by the row that crosses the budget).
 */
export function floorMatchesBuild(
  measured: Pick<TurnMeasurement, 'sentIds' | 'floorIds'>,
): boolean {
  const shorter = Math.min(measured.sentIds.length, measured.floorIds.length);
  if (shorter === 0) return false;
  for (let index = 0; index < shorter; index += 1) {
    if (measured.sentIds[index] !== measured.floorIds[index]) return false;
  }
  return true;
}

// --- internal helpers ---

function idsNewestFirst(messages: readonly Message[]): string[] {
  return messages
    .filter((message) => message.id !== undefined)
    .map((message) => message.id as string)
    .reverse();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
