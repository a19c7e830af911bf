import { ContextError, InvalidMessageError } from '@ctxkit/context-core';
import { describeValue } from './describe-value.js';
import { SOURCE } from './package-source.js';

/** The wire formats this package reads and writes, as named in error messages. */
export type WireFormat = 'OpenAI chat' | 'Anthropic' | 'OpenAI Responses' | 'Gemini';

/** Whether a wire check accepts only what ctxkit carries (`strict`) or any field the API knows. */
export type ShapeMode = 'strict' | 'lenient';

/** A JSON object. */
export type WireRecord = Record<string, unknown>;

/**
 * A {@link ContextError} about the wire value at `path` (such as `messages[3].content[1]`):
 * `invalid_wire` when it breaks the API's rules, `unsupported_wire` when it is valid for the API
 * but holds something ctxkit's message model cannot carry. `details` holds `format`, `path`,
 * `problem` (the message without its prefix) and `index`, the message index.
 */
export function wireError(
  format: WireFormat,
  path: string,
  index: number | undefined,
  problem: string,
  code: 'invalid_wire' | 'unsupported_wire' = 'invalid_wire',
): InvalidMessageError {
  return new InvalidMessageError({
    code,
    source: SOURCE,
    message: `${format} ${path}: ${problem}`,
    details: { format, path, problem, ...(index === undefined ? {} : { index }) },
  });
}

/** Whether a field's value carries nothing: `null`, `undefined` or an empty array. */
export function isEmptyField(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the fields of one wire object and throws {@link wireError}s naming its path. A class so
 * that the hot loops of the converters allocate no closures per object.
 */
export class ShapeReader {
  /** The object itself. */
  readonly record: WireRecord;

  /** Throws `invalid_wire` unless `value` is a JSON object; `index` is the message index. */
  constructor(
    private readonly format: WireFormat,
    private readonly mode: ShapeMode,
    value: unknown,
    private readonly path: string,
    private readonly index: number | undefined,
  ) {
    if (!isRecord(value)) {
      throw wireError(format, path, index, `expected an object, got ${describeValue(value)}.`);
    }
    this.record = value;
  }

  /** A string field; `nonEmpty` also rejects `""`. */
  string(key: string, nonEmpty = false): string {
    const field = this.record[key];
    if (typeof field !== 'string' || (nonEmpty && field.length === 0)) {
      this.fail(
        `${key} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${describeValue(field)}.`,
      );
    }
    return field as string;
  }

  /** An optional field that must be a JSON object when present (such as `cache_control`). */
  optionalRecord(key: string): WireRecord | undefined {
    const field = this.record[key];
    if (field !== undefined && !isRecord(field)) {
      this.fail(`${key} must be an object, got ${describeValue(field)}.`);
    }
    return field;
  }

  /** A reader over the object in field `key`, which must be one. */
  child(key: string): ShapeReader {
    return new ShapeReader(
      this.format,
      this.mode,
      this.record[key],
      `${this.path}.${key}`,
      this.index,
    );
  }

  /** A reader over item `at` of the array in field `key`. */
  element(key: string, at: number): ShapeReader {
    const items = this.record[key] as unknown[];
    return new ShapeReader(
      this.format,
      this.mode,
      items[at],
      `${this.path}.${key}[${at}]`,
      this.index,
    );
  }

  /** Throws `unsupported_wire` in strict mode: `what` is valid for the API but ctxkit cannot carry it. */
  unsupported(what: string): void {
    if (this.mode === 'lenient') return;
    throw wireError(
      this.format,
      this.path,
      this.index,
      `${what} is valid for the API but ctxkit's message model cannot carry it.`,
      'unsupported_wire',
    );
  }

  /**
   * In strict mode, throws `unsupported_wire` for any key not in `allowed` that holds something:
   * a key set to `null` or `[]` carries nothing (the official SDKs return responses with
   * `refusal: null`, `annotations: []`, `citations: null` and the like), so it is read as absent.
   */
  onlyKeys(allowed: readonly string[]): void {
    if (this.mode === 'lenient') return;
    for (const key in this.record) {
      if (!allowed.includes(key) && !isEmptyField(this.record[key])) {
        throw wireError(
          this.format,
          this.path,
          this.index,
          `field ${JSON.stringify(key)} is valid for the API but ctxkit's message model cannot carry it.`,
          'unsupported_wire',
        );
      }
    }
  }

  /** Throws `invalid_wire` with `problem` at this object's path. */
  fail(problem: string): never {
    throw wireError(this.format, this.path, this.index, problem);
  }
}

/** A {@link ShapeReader} over `value` at `path`, reporting `index` as the message index. */
export function readShape(
  format: WireFormat,
  mode: ShapeMode,
  value: unknown,
  path: string,
  index: number | undefined,
): ShapeReader {
  return new ShapeReader(format, mode, value, path, index);
}
