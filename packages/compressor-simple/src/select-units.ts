import type { Message, MessageUnit } from '@ctxkit/context-core';
import type { FittedUnit } from './fit-unit.js';
import type { HistoryScan } from './scan-history.js';
import type { UnitCursor } from './unit-cursor.js';

/** How {@link selectUnits} chooses. */
export interface SelectUnitsOptions {
  /** Tokens the kept units may use. */
  limit: number;
  /** What a unit costs. */
  cost(unit: MessageUnit): number;
  /** The first user message's unit: kept if it fits after the newest, always, or not specially. */
  firstUser: 'if-fits' | 'always' | 'no';
  /** Cuts the newest unit to what is left; without it the newest unit is kept whole, for free. */
  fitNewest?(unit: MessageUnit, left: number): FittedUnit;
  /**
   * Given the units kept whatever the budget (system, pinned, first user), an index: units that
   * reach past it are kept (and paid for) even when they do not fit. Default: none.
   */
  keepFrom?(kept: readonly MessageUnit[]): number;
  /**
   * Without `fitNewest`: whether a later layer may remove all of `unit`; then the unit before it
   * is kept for free too, since it may become the newest.
   */
  mayVanish?(unit: MessageUnit): boolean;
  /** A lower limit that units ending at or before `before` must fit as well (in the same walk). */
  inner?: { limit: number; before: number };
}

/** The messages {@link selectUnits} keeps, and how many of them it cut. */
export interface Selection {
  /** The kept messages, in order. */
  messages: Message[];
  /** Messages of the newest unit that were cut to fit. */
  truncated: number;
  /** What the kept units cost: by `cost`, the newest by what `fitNewest` left of it. */
  tokens: number;
  /** Where the kept units are in the input: runs of whole units, by `start` and `end`, in order. */
  ranges: { start: number; end: number }[];
}

/**
 * The budget walk of the trimming strategies: system and pinned units are kept and paid for
 * first; then the newest unit; then the first user message's unit (per `firstUser`); then units
 * from the newest backwards while they fit (or reach past `keepFrom`), stopping at the first that
 * does not (units before `inner.before` must fit `inner.limit` as well). Everything else is
 * dropped. Units are read from `cursor`, so only the part of the history the walk reaches is
 * grouped.
 */
export function selectUnits(
  messages: readonly Message[],
  scan: HistoryScan,
  cursor: UnitCursor,
  options: SelectUnitsOptions,
): Selection {
  /** Units kept whatever the walk does (system, pinned, first user), by start. */
  const fixed = new Map<number, MessageUnit>();
  let left = options.limit;
  for (const index of scan.protectedIndexes) {
    const unit = cursor.unitAt(index);
    if (fixed.has(unit.start)) continue;
    fixed.set(unit.start, unit);
    left -= options.cost(unit);
  }
  // What the inner limit leaves, kept as an offset from `left`: both fall by the same costs.
  const innerGap = options.inner === undefined ? 0 : options.limit - options.inner.limit;
  const innerBefore = options.inner?.before ?? 0;
  const firstUser =
    options.firstUser !== 'no' && scan.firstUser >= 0 ? cursor.unitAt(scan.firstUser) : undefined;
  const keepFrom = options.keepFrom?.([...fixed.values(), ...(firstUser ? [firstUser] : [])]);
  let truncated = 0;
  const units = cursor.fromNewest();
  const newest = units.next().value;
  if (newest === undefined) return { messages: [], truncated, tokens: 0, ranges: [] };
  /** What the newest unit becomes: cut to fit, or as it is. */
  let newestMessages = newest.messages;
  /** The walk keeps every unit from here to the end. */
  let walkStart = newest.start;
  if (!fixed.has(newest.start)) {
    if (options.fitNewest) {
      const fitted = options.fitNewest(newest, left);
      newestMessages = fitted.messages;
      left -= fitted.tokens;
      truncated = fitted.truncated;
    } else {
      let unit: MessageUnit | undefined = newest;
      while (unit !== undefined && options.mayVanish?.(unit)) {
        const next = units.next();
        unit = next.done ? undefined : next.value;
        if (unit !== undefined) walkStart = unit.start;
      }
    }
  }
  if (firstUser !== undefined && firstUser.start < walkStart && !fixed.has(firstUser.start)) {
    if (options.firstUser === 'always') fixed.set(firstUser.start, firstUser);
    else {
      const cost = options.cost(firstUser);
      if (cost <= left) {
        fixed.set(firstUser.start, firstUser);
        left -= cost;
      }
    }
  }
  for (const unit of units) {
    if (!fixed.has(unit.start)) {
      const cost = options.cost(unit);
      const room = unit.end <= innerBefore ? left - innerGap : left;
      if (cost > room && unit.end <= (keepFrom ?? messages.length)) break;
      left -= cost;
    }
    walkStart = unit.start;
  }
  const output: Message[] = [];
  const ranges: Selection['ranges'] = [];
  const before = [...fixed.values()]
    .filter((unit) => unit.start < walkStart)
    .sort((first, second) => first.start - second.start);
  for (const unit of before) {
    output.push(...unit.messages);
    ranges.push({ start: unit.start, end: unit.end });
  }
  for (let index = walkStart; index < newest.start; index += 1)
    output.push(messages[index] as Message);
  output.push(...newestMessages);
  ranges.push({ start: walkStart, end: messages.length });
  return { messages: output, truncated, tokens: options.limit - left, ranges };
}
