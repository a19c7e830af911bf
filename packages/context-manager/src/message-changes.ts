import {
  type ChangeAction,
  cachedTokenCount,
  countMessageTokens,
  type Message,
  type MessageChange,
  originOf,
  type StageTrace,
  type TokenCounter,
} from '@ctxkit/context-core';

/** What {@link messageChanges} reads: a compression's input, output and stage outputs. */
export interface ChangeFacts {
  /** The messages given to the compressor. */
  input: readonly Message[];
  /** What it returned. */
  output: readonly Message[];
  /** Each stage's output, in order; without it, every change is put down to `compressor`. */
  trace: readonly StageTrace[] | undefined;
  /** The compressor's name. */
  compressor: string;
  /** The counter of the fit. */
  counter: TokenCounter;
}

/**
 * What became of every input message of a compression, in input order, then one entry per
 * inserted message in output order. An output message is the input's own object (kept), a copy
 * a compressor recorded as made from one (truncated, masked, stripped: the latest thing done to
 * it), a summary recorded as made from several (each of those summarized into it), or new
 * (inserted). An input message no output message comes from was dropped. The step is the first
 * stage whose output holds the message as sent (or, for a dropped one, no longer holds anything
 * made from it). Input messages never counted have `tokensBefore: null`: reading changes counts
 * nothing that was not counted already, except the output.
 *
 * @param facts - the compression's input, output, trace, name and counter
 * @returns the changes
 */
export function messageChanges(facts: ChangeFacts): MessageChange[] {
  const { input, output, counter } = facts;
  const positions = indexPositions(input);
  const stages = facts.trace?.length ? facts.trace : [{ name: facts.compressor, output }];
  const rootsOf = rootResolver(positions);
  const holding = stages.map((stage) => new Set(stage.output));
  const firstStageHolding = (message: Message) =>
    stages.find((_, index) => holding[index]?.has(message))?.name;
  let rootsByStage: Set<number>[] | undefined;
  const stageDropping = (inputIndex: number) => {
    rootsByStage ??= stages.map((stage) => new Set(stage.output.flatMap(rootsOf)));
    const index = rootsByStage.findIndex((roots) => !roots.has(inputIndex));
    return (stages[index] ?? stages.at(-1))?.name;
  };
  const fates = new Array<Fate | undefined>(input.length);
  const inserted: MessageChange[] = [];

  output.forEach((message, outputIndex) => {
    const at = takePosition(positions, message);
    if (at !== undefined) {
      fates[at] = { action: 'kept', outputIndex, message };
      return;
    }
    const origin = originOf(message);
    const step = firstStageHolding(message);
    const tokensAfter = countMessageTokens(message, counter);
    const insert = () =>
      inserted.push({
        action: 'inserted',
        inputIndex: null,
        outputIndex,
        step,
        tokensBefore: null,
        tokensAfter,
        message,
      });
    if (origin === undefined || origin.derivation === 'summarized') {
      insert();
      if (origin === undefined) return;
      for (const root of origin.from.flatMap(rootsOf)) {
        if (fates[root] === undefined)
          fates[root] = { action: 'summarized', into: outputIndex, step };
      }
      return;
    }
    const [root] = rootsOf(message);
    if (root === undefined || fates[root] !== undefined) {
      insert();
      return;
    }
    fates[root] = { action: origin.derivation, outputIndex, message, step };
  });

  const changes = input.map((original, inputIndex): MessageChange => {
    const fate = fates[inputIndex];
    const id = typeof original.id === 'string' ? { id: original.id } : {};
    const tokensBefore = cachedTokenCount(original, counter.name) ?? null;
    if (fate === undefined) {
      return {
        action: 'dropped',
        ...id,
        inputIndex,
        outputIndex: null,
        step: stageDropping(inputIndex),
        tokensBefore,
        tokensAfter: 0,
      };
    }
    if (fate.action === 'summarized') {
      return {
        action: 'summarized',
        ...id,
        inputIndex,
        outputIndex: null,
        ...(fate.step === undefined ? {} : { step: fate.step }),
        tokensBefore,
        tokensAfter: 0,
        into: fate.into,
      };
    }
    const sent = fate.message as Message;
    return {
      action: fate.action,
      ...id,
      inputIndex,
      outputIndex: fate.outputIndex as number,
      ...(fate.action === 'kept' || fate.step === undefined ? {} : { step: fate.step }),
      tokensBefore: tokensBefore ?? countMessageTokens(original, counter),
      tokensAfter: countMessageTokens(sent, counter),
      ...(fate.action === 'kept' ? {} : { message: sent }),
    };
  });
  return [...changes, ...inserted];
}

// --- internal helpers ---

interface Fate {
  action: ChangeAction;
  outputIndex?: number;
  message?: Message;
  step?: string | undefined;
  into?: number;
}

/** The input positions of each message object (an object given twice has two). */
function indexPositions(input: readonly Message[]): Map<Message, number[]> {
  const positions = new Map<Message, number[]>();
  input.forEach((message, index) => {
    const list = positions.get(message);
    if (list === undefined) positions.set(message, [index]);
    else list.push(index);
  });
  return positions;
}

/** The next unclaimed input position of `message`, claiming it. */
function takePosition(positions: Map<Message, number[]>, message: Message): number | undefined {
  const list = positions.get(message);
  return list === undefined || list.length === 0 ? undefined : list.shift();
}

/**
 * The input positions a message comes from, following recorded origins back to input objects:
 * one for a copy, several for a summary, none for a message made from nothing of the input.
 */
function rootResolver(positions: Map<Message, number[]>): (message: Message) => number[] {
  const firstPositions = new Map<Message, number>();
  for (const [message, list] of positions) firstPositions.set(message, list[0] as number);
  const resolve = (message: Message, depth: number): number[] => {
    const at = firstPositions.get(message);
    if (at !== undefined) return [at];
    const origin = originOf(message);
    if (origin === undefined || depth > 64) return [];
    return origin.from.flatMap((source) => resolve(source, depth + 1));
  };
  return (message) => resolve(message, 0);
}
