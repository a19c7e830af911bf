import { countTokens, groupUnits, type Message, type TokenCounter } from '@ctxkit/context-core';

/**
 * The whole units (core's `groupUnits`) of `messages` that fit `limit` tokens, never cutting a
 * message: system and pinned units, the newest unit and the unit holding `keep` (when given) are
 * kept and paid for first, whatever they cost; then units from the newest back while they fit.
 * The first that does not fit, and every older one, is left out. Order is kept. The result is
 * over `limit` only when the units kept first are; cutting those is left to a later stage.
 */
export function keepNewestUnits(
  messages: readonly Message[],
  limit: number,
  counter: TokenCounter,
  keep?: Message,
): Message[] {
  const units = groupUnits(messages);
  const newest = units.length - 1;
  let left = limit;
  const kept = units.map((unit, index) => {
    const first =
      unit.protected || index === newest || (keep !== undefined && unit.messages.includes(keep));
    if (first) left -= countTokens(unit.messages, counter);
    return first;
  });
  for (let index = newest - 1; index >= 0; index -= 1) {
    if (kept[index]) continue;
    const cost = countTokens(units[index]?.messages ?? [], counter);
    if (cost > left) break;
    kept[index] = true;
    left -= cost;
  }
  return units.flatMap((unit, index) => (kept[index] ? unit.messages : []));
}
