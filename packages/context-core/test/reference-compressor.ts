import {
  type ContextCompressor,
  countTokens,
  defineCompressor,
  groupUnits,
  type PromptAssembler,
} from '../src/index.js';

/**
 * A plain, correct trimming compressor used to test core's pipeline and conformance suite:
 * system, pinned and newest units first, then units from the newest back while they fit.
 */
export function referenceTrim(): ContextCompressor {
  return defineCompressor({
    name: 'reference-trim',
    transform({ messages, limit, tokens, context }) {
      if (tokens <= limit) return { messages: [...messages] };
      const units = groupUnits(messages);
      const keep = units.map((unit, index) => unit.protected || index === units.length - 1);
      let used = 0;
      units.forEach((unit, index) => {
        if (keep[index]) used += countTokens(unit.messages, context.counter);
      });
      for (let index = units.length - 2; index >= 0; index -= 1) {
        if (keep[index]) continue;
        const cost = countTokens(
          (units[index] as (typeof units)[number]).messages,
          context.counter,
        );
        if (used + cost > limit) break;
        keep[index] = true;
        used += cost;
      }
      const kept = units.filter((_, index) => keep[index]).flatMap((unit) => unit.messages);
      return { messages: kept, dropped: messages.length - kept.length };
    },
  });
}

/** System, history, input: the simplest assembler. */
export const plainAssembler: PromptAssembler = {
  assemble({ system, history, input }) {
    const head =
      typeof system === 'string' ? [{ role: 'system' as const, content: system }] : system;
    const tail =
      input === undefined
        ? []
        : [typeof input === 'string' ? { role: 'user' as const, content: input } : input];
    return [...head, ...history, ...tail];
  },
};
