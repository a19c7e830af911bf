/**
 * Whether a stored `created_at` is a time as ctxkit writes it: an ISO 8601 date and time
 * (`2025-01-31T12:00:00.000Z`, or with an offset) that names a real instant.
 *
 * @param value - the column's value, as read
 * @returns whether it is such a time
 */
export function isRecordedTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

// --- internal helpers ---

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
