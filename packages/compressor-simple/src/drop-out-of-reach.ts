import {
  type ContextCompressor,
  defineCompressor,
  type Message,
  type MessageUnit,
  type TokenBudget,
} from '@ctxkit/context-core';
import { scanHistory } from './scan-history.js';
import { selectUnits } from './select-units.js';
import { createUnitCursor } from './unit-cursor.js';

/** Options of {@link dropOutOfReach}. */
export interface DropOutOfReachOptions {
  /** Whether a later layer may shrink `message` under `budget`; if in doubt, true. */
  mayShrink(message: Message, budget: TokenBudget): boolean;
  /** Whether the final trim keeps the first user message's unit when it fits. */
  keepFirstUser: boolean;
  /** Whether a layer ranks `message` by how many like it are newer (recent results, thinking, media). */
  isRanked?(message: Message): boolean;
  /**
   * The oldest message a layer counts as recent (the oldest of the results, thinking or media it
   * keeps). When a unit kept whatever the budget (system, pinned, first user) holds a ranked message,
   * the units from this index on are kept too, so that dropping history newer than that unit
   * changes no layer's count of what is recent. Default: none.
   */
  recentFrom?(messages: readonly Message[]): number;
  /** Whether a later layer may remove `message` altogether; default: none does. */
  mayVanish?(message: Message): boolean;
  /**
   * The preset's sliding window, if any: it drops every unit it may drop (not among its
   * `keepRecentMessages` newest messages) that does not fit `ratio` of the budget, so such units are out
   * of reach too.
   */
  window?: { ratio: number; keepRecentMessages: number };
}

/**
 * The first stage of the presets, named `out-of-reach`: drops the units that the preset's final
 * `trimToBudget` would drop whatever its layers do, so that the layers do not reshape history
 * that is about to go. Every message a layer may shrink is priced at zero, every other message at
 * its count; walking from the newest back as the trim does, a unit that does not fit even at that
 * price cannot be kept, nor can any older one. Never dropped here: system and pinned units, the
 * newest unit, the first user message's unit (when the trim keeps it); the units a layer counts
 * as recent (`recentFrom`), when one of those kept units holds a message that layer ranks; and,
 * when a layer may remove the newest unit (`mayVanish`), the units that may become the newest in
 * its place. With a sliding `window`, the units it would drop are out of reach as well. The
 * preset's output is the same as without this stage (a property test checks it); only the work,
 * and the report's attribution of drops, change.
 */
export function dropOutOfReach(options: DropOutOfReachOptions): ContextCompressor {
  return defineCompressor({
    name: 'out-of-reach',
    // Only what the final trim would drop anyway: the preset, not this stage, fits the budget.
    guarantees: {
      fitsBudget: false,
      unchangedWhenFits: true,
      keepsToolPairs: true,
      keepsFirstUser: options.keepFirstUser,
    },
    transform: (input) => {
      // Not destructured whole: `tokens` would count every message.
      const { messages, budget, limit, countUpTo, countRange } = input;
      const tokens = countUpTo(limit);
      if (tokens <= limit) return { messages: [...messages], tokens };
      const scan = scanHistory(messages);
      const floor = (unit: MessageUnit) => {
        let tokens = 0;
        for (let index = unit.start; index < unit.end; index += 1) {
          if (!options.mayShrink(messages[index] as Message, budget))
            tokens += countRange(index, index + 1);
        }
        return tokens;
      };
      const selection = selectUnits(messages, scan, createUnitCursor(messages, scan.firstCall), {
        limit,
        cost: floor,
        firstUser: options.keepFirstUser ? 'always' : 'no',
        keepFrom: (always) =>
          options.recentFrom &&
          always.some((unit) =>
            unit.messages.some((message) => options.isRanked?.(message) ?? true),
          )
            ? options.recentFrom(messages)
            : messages.length,
        mayVanish: (unit) =>
          unit.messages.every((message) => options.mayVanish?.(message) ?? false),
        ...(options.window === undefined
          ? {}
          : {
              inner: {
                limit: Math.floor(limit * options.window.ratio),
                before: recentStart(messages, options.window.keepRecentMessages, options.mayVanish),
              },
            }),
      });
      // What is kept is counted, for the report; what is dropped unread stays uncounted.
      let kept = 0;
      for (const range of selection.ranges) kept += countRange(range.start, range.end);
      return {
        messages: selection.messages,
        tokens: kept,
        dropped: messages.length - selection.messages.length,
      };
    },
  });
}

// --- internal helpers ---

/**
 * Where the window's `keepRecentMessages` newest messages may start once later layers have removed what
 * they may: the index from which `keepRecentMessages` messages remain that no layer removes.
 */
function recentStart(
  messages: readonly Message[],
  keepRecentMessages: number,
  mayVanish: ((message: Message) => boolean) | undefined,
): number {
  let staying = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (staying >= keepRecentMessages) return index + 1;
    if (!mayVanish?.(messages[index] as Message)) staying += 1;
  }
  return 0;
}
