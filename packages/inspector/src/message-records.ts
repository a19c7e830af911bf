import { corruptRow, kindOf } from './corrupt-row.js';
import type { InspectedDatabase } from './open-inspected-database.js';

/** What the inspector shows of a stored message beside its fate: its role and a short preview. */
export interface MessageRecord {
  /** The message's role. */
  role: string;
  /** Its text on one line, cut to {@link PREVIEW_LENGTH} characters; tool calls and results named. */
  preview: string;
}

/** The most characters a preview holds. */
export const PREVIEW_LENGTH = 120;

/**
 * The role and a preview of each stored message with one of `ids`, active or archived. Ids the
 * history does not hold (a message the caller never stored) are left out of the map.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @param ids - message ids, as changes name them
 * @returns the records by id
 * @throws InspectorError `corrupt_message` naming the first of those rows whose role is not text,
 *   or whose content is not the JSON of a string or of a list of parts, as ctxkit stores it
 */
export async function readMessageRecords(
  database: InspectedDatabase,
  ids: Iterable<string>,
): Promise<Map<string, MessageRecord>> {
  const wanted = [...new Set(ids)].filter((id) => /^\d+$/.test(id));
  const records = new Map<string, MessageRecord>();
  for (let start = 0; start < wanted.length; start += CHUNK) {
    const chunk = wanted.slice(start, start + CHUNK).map(Number);
    const rows = await database.db
      .selectFrom('history')
      .select(['id', 'conversation_id', 'role', 'content'])
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) {
      const rowId = String(row.id);
      const fail = (problem: string): never => {
        throw corruptRow({
          table: 'history',
          rowId,
          ...(typeof row.conversation_id === 'string'
            ? { conversationId: row.conversation_id }
            : {}),
          problem,
        });
      };
      if (typeof row.role !== 'string') fail(`its role is ${kindOf(row.role)}, not text`);
      records.set(rowId, { role: row.role, preview: previewOf(row.content, fail) });
    }
  }
  return records;
}

// --- internal helpers ---

/** Ids per query: well under SQLite's limit of bound parameters. */
const CHUNK = 500;

function previewOf(stored: unknown, fail: (problem: string) => never): string {
  if (typeof stored !== 'string') return fail(`its content is ${kindOf(stored)}, not JSON text`);
  let content: unknown;
  try {
    content = JSON.parse(stored);
  } catch {
    return fail('its content is not JSON');
  }
  if (typeof content === 'string') return clip(content);
  if (!Array.isArray(content)) {
    return fail(`its content is ${kindOf(content)}, not a string or a list of parts`);
  }
  content.forEach((part: unknown, index) => {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) {
      fail(`part ${index} of its content is ${kindOf(part)}, not an object`);
    }
    const type = (part as Record<string, unknown>).type;
    if (typeof type !== 'string')
      fail(`part ${index} of its content has a type that is ${kindOf(type)}, not a string`);
  });
  return clip(
    content
      .map(partText)
      .filter((text) => text !== '')
      .join(' '),
  );
}

function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const fields = part as Record<string, unknown>;
  switch (fields.type) {
    case 'text':
      return String(fields.text ?? '');
    case 'thinking':
    case 'reasoning':
      return `(thinking) ${String(fields.text ?? '')}`;
    case 'tool-call':
      return `→ ${String(fields.toolName)}(${JSON.stringify(fields.input ?? fields.args ?? {})})`;
    case 'tool-result':
      return `← ${String(fields.toolName)}: ${outputText(fields.output)}`;
    default:
      return `[${String(fields.type)}]`;
  }
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null) {
    const value = (output as Record<string, unknown>).value;
    return typeof value === 'string' ? value : JSON.stringify(value ?? output);
  }
  return String(output);
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= PREVIEW_LENGTH ? line : `${line.slice(0, PREVIEW_LENGTH - 1)}…`;
}
