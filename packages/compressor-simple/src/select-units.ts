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
  /** Where the kept units are in the input: their `start` and `end` indexes, in order. */
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
  const kept = new Map<number, readonly Message[]>();
  const always: MessageUnit[] = [];
  let left = options.limit;
  for (const index of scan.protectedIndexes) {
    const unit = cursor.unitAt(index);
    if (kept.has(unit.start)) continue;
    kept.set(unit.start, unit.messages);
    always.push(unit);
    left -= options.cost(unit);
  }
  // What the inner limit leaves, kept as an offset from `left`: both fall by the same costs.
  const innerGap = options.inner === undefined ? 0 : options.limit - options.inner.limit;
  const innerBefore = options.inner?.before ?? 0;
  const firstUser =
    options.firstUser !== 'no' && scan.firstUser >= 0 ? cursor.unitAt(scan.firstUser) : undefined;
  if (firstUser !== undefined) always.push(firstUser);
  const keepFrom = options.keepFrom?.(always) ?? messages.length;
  let truncated = 0;
  const units = cursor.fromNewest();
  const newest = units.next().value;
  if (newest !== undefined && !kept.has(newest.start)) {
    if (options.fitNewest) {
      const fitted = options.fitNewest(newest, left);
      kept.set(newest.start, fitted.messages);
      left -= fitted.tokens;
      truncated = fitted.truncated;
    } else {
      kept.set(newest.start, newest.messages);
      let unit: MessageUnit | undefined = newest;
      while (unit !== undefined && options.mayVanish?.(unit)) {
        const next = units.next();
        unit = next.done ? undefined : next.value;
        if (unit !== undefined && !kept.has(unit.start)) kept.set(unit.start, unit.messages);
      }
    }
  }
  if (firstUser !== undefined && !kept.has(firstUser.start)) {
    if (options.firstUser === 'always') kept.set(firstUser.start, firstUser.messages);
    else {
      const cost = options.cost(firstUser);
      if (cost <= left) {
        kept.set(firstUser.start, firstUser.messages);
        left -= cost;
      }
    }
  }
  for (const unit of units) {
    if (kept.has(unit.start)) continue;
    const cost = options.cost(unit);
    const room = unit.end <= innerBefore ? left - innerGap : left;
    if (cost > room && unit.end <= keepFrom) break;
    kept.set(unit.start, unit.messages);
    left -= cost;
  }
  const output: Message[] = [];
  const ranges: Selection['ranges'] = [];
  const ordered = [...kept].sort(([first], [second]) => first - second);
  for (const [start, unitMessages] of ordered) {
    output.push(...unitMessages);
    ranges.push({ start, end: start + unitMessages.length });
  }
  return { messages: output, truncated, tokens: options.limit - left, ranges };
}
