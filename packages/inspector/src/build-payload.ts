import type { ChangeAction, ContextCompressedEvent } from '@ctxkit/context-core';
import { corruptRow, kindOf } from './corrupt-row.js';

/** The payload of a `context.compressed` event. */
export type BuildPayload = ContextCompressedEvent['payload'];

/**
 * The payload of a stored `context.compressed` event, checked field by field against what ctxkit
 * writes: every figure the inspector shows is a finite number of at least 0 (counts and indexes
 * whole), every list a list of the right entries, the predicted cost complete. Fields the
 * inspector does not read are left as they are (a newer release may add some).
 *
 * @param stored - the `payload` column's value, as read
 * @param eventId - the row's id, for the error
 * @param conversationId - the row's conversation, for the error
 * @returns the payload
 * @throws InspectorError `corrupt_event` naming the row and the first field that is wrong
 */
export function parseBuildPayload(
  stored: unknown,
  eventId: string,
  conversationId: string,
): BuildPayload {
  const fail = (problem: string): never => {
    throw corruptRow({ table: 'events', rowId: eventId, conversationId, problem });
  };
  if (typeof stored !== 'string') return fail(`its payload is ${kindOf(stored)}, not JSON text`);
  let payload: unknown;
  try {
    payload = JSON.parse(stored);
  } catch {
    return fail('its payload is not JSON');
  }
  const fields = record(payload, 'its payload', fail);
  for (const name of ['originalCount', 'compressedCount'] as const) {
    count(fields[name], name, fail);
  }
  for (const name of ['estimatedTokens', 'budgetTokens'] as const) {
    tokens(fields[name], name, fail);
  }
  if (fields.originalTokens !== undefined) tokens(fields.originalTokens, 'originalTokens', fail);
  if (fields.uncountedMessages !== undefined) {
    count(fields.uncountedMessages, 'uncountedMessages', fail);
  }
  list(fields.steps, 'steps', fail).forEach((entry, index) => {
    const where = `steps[${index}]`;
    const step = record(entry, where, fail);
    text(step.name, `${where}.name`, fail);
    for (const name of ['tokensBefore', 'tokensAfter'] as const) {
      tokens(step[name], `${where}.${name}`, fail);
    }
    for (const name of ['truncated', 'masked', 'dropped', 'summarized'] as const) {
      count(step[name], `${where}.${name}`, fail);
    }
    if (step.uncounted !== undefined) count(step.uncounted, `${where}.uncounted`, fail);
  });
  if (fields.changes !== undefined) {
    list(fields.changes, 'changes', fail).forEach((entry, index) => {
      const where = `changes[${index}]`;
      const change = record(entry, where, fail);
      if (!CHANGE_ACTIONS.includes(change.action as ChangeAction)) {
        fail(
          `${where}.action is ${kindOf(change.action)}, not one of ${CHANGE_ACTIONS.join(', ')}`,
        );
      }
      if (change.id !== undefined) text(change.id, `${where}.id`, fail);
      if (change.step !== undefined) text(change.step, `${where}.step`, fail);
      if (change.inputIndex !== null) count(change.inputIndex, `${where}.inputIndex`, fail);
      if (change.outputIndex !== null) count(change.outputIndex, `${where}.outputIndex`, fail);
      if (change.tokensBefore !== null) tokens(change.tokensBefore, `${where}.tokensBefore`, fail);
      tokens(change.tokensAfter, `${where}.tokensAfter`, fail);
      if (change.into !== undefined) count(change.into, `${where}.into`, fail);
    });
  }
  if (fields.predictedCost !== undefined) {
    const cost = record(fields.predictedCost, 'predictedCost', fail);
    for (const name of ['inputTokens', 'cachedInputTokens', 'uncachedInputTokens'] as const) {
      tokens(cost[name], `predictedCost.${name}`, fail);
    }
    const written = record(cost.cacheWriteTokens, 'predictedCost.cacheWriteTokens', fail);
    for (const ttl of ['5m', '1h'] as const) {
      tokens(written[ttl], `predictedCost.cacheWriteTokens.${ttl}`, fail);
    }
    if (cost.inputUsd !== null) tokens(cost.inputUsd, 'predictedCost.inputUsd', fail);
    list(cost.warnings, 'predictedCost.warnings', fail).forEach((warning, index) => {
      text(warning, `predictedCost.warnings[${index}]`, fail);
    });
  }
  return payload as BuildPayload;
}

// --- internal helpers ---

/** Every action a recorded change may name. */
const CHANGE_ACTIONS: readonly ChangeAction[] = [
  'kept',
  'truncated',
  'masked',
  'stripped',
  'summarized',
  'dropped',
  'inserted',
];

type Fail = (problem: string) => never;

function record(value: unknown, where: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`${where} is ${kindOf(value)}, not an object`);
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, where: string, fail: Fail): unknown[] {
  if (!Array.isArray(value)) return fail(`${where} is ${kindOf(value)}, not an array`);
  return value;
}

function text(value: unknown, where: string, fail: Fail): void {
  if (typeof value !== 'string') fail(`${where} is ${kindOf(value)}, not a string`);
}

/** A figure of tokens or dollars: finite, at least 0. */
function tokens(value: unknown, where: string, fail: Fail): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(`${where} is ${kindOf(value)}, not a finite number of at least 0`);
  }
}

/** A count or an index: a whole number, at least 0. */
function count(value: unknown, where: string, fail: Fail): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(`${where} is ${kindOf(value)}, not a whole number of at least 0`);
  }
}
