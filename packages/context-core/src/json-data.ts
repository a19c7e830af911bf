import { nonDataProperty } from './non-data-property.js';

/** Deepest nesting of arrays and objects {@link jsonDataProblem} accepts. */
export const MAX_JSON_DEPTH = 256;

/**
 * What keeps `value` from being JSON data that reads back exactly as it was written, or
 * `undefined` when it is: strings, finite numbers, booleans, null, arrays without holes or
 * `undefined` items, and plain objects of those (a property whose value is `undefined` is
 * allowed: it reads back absent). Refused, with the path where it was found: cycles, BigInt,
 * functions, symbols, NaN and infinities, class instances such as Date or Map (JSON would turn
 * them into something else), getters and setters (a value that may change between reads), and
 * nesting deeper than {@link MAX_JSON_DEPTH}. The walk uses no
 * recursion, so no input can overflow the stack.
 *
 * @param value - the value to check
 * @param path - how to name the value in the answer, such as `meta`
 * @returns the problem, with the path where it was found, or `undefined`
 */
export function jsonDataProblem(value: unknown, path: string): string | undefined {
  const stack: Frame[] = [{ value, path, depth: 0, leave: false }];
  const open = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.leave) {
      open.delete(frame.value as object);
      continue;
    }
    const { value: item, path: where, depth } = frame;
    const problem = scalarProblem(item, where);
    if (problem !== undefined) return problem;
    if (typeof item !== 'object' || item === null) continue;
    if (open.has(item)) return `${where} refers back to itself (a cycle).`;
    if (depth >= MAX_JSON_DEPTH)
      return `${where} is nested more than ${MAX_JSON_DEPTH} levels deep.`;
    const isArray = Array.isArray(item);
    if (!isArray && !isPlainObject(item)) {
      return `${where} is ${describeInstance(item)}, not a plain object: convert it to JSON data first.`;
    }
    // Hidden properties are no harm here: JSON drops them when counting and when sending.
    const property = nonDataProperty(item);
    const accessor = property?.kind === 'accessor' ? property.key : undefined;
    if (accessor !== undefined) {
      return `${where}${isArray ? `[${accessor}]` : `.${accessor}`} is a getter or setter, not data.`;
    }
    open.add(item);
    stack.push({ value: item, path: where, depth, leave: true });
    if (isArray) {
      for (let index = item.length - 1; index >= 0; index -= 1) {
        if (!(index in item)) return `${where}[${index}] is a hole in the array.`;
        const child = item[index];
        if (child === undefined)
          return `${where}[${index}] is undefined, which JSON turns into null.`;
        stack.push({ value: child, path: `${where}[${index}]`, depth: depth + 1, leave: false });
      }
    } else {
      for (const key of Object.keys(item)) {
        const child = (item as Record<string, unknown>)[key];
        if (child === undefined) continue;
        stack.push({ value: child, path: `${where}.${key}`, depth: depth + 1, leave: false });
      }
      if (Object.getOwnPropertySymbols(item).length > 0) return `${where} has symbol keys.`;
    }
  }
  return undefined;
}

// --- internal helpers ---

interface Frame {
  value: unknown;
  path: string;
  depth: number;
  /** Set on the frame that closes an object or array, to take it off the cycle check's path. */
  leave: boolean;
}

function scalarProblem(value: unknown, where: string): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? undefined : `${where} is ${value}, which JSON cannot hold.`;
    case 'bigint':
      return `${where} is a BigInt, which JSON cannot hold: store it as a string.`;
    case 'function':
    case 'symbol':
      return `${where} is a ${typeof value}, which JSON cannot hold.`;
    case 'undefined':
      return `${where} is undefined.`;
    default:
      return undefined;
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describeInstance(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name.length > 0 ? `a ${name}` : 'an object with a prototype';
}
