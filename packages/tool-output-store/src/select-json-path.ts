/** One step of a JSON path: a key, an array index, or every child (`*`). */
export type JsonPathSegment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' };

/**
 * The segments of a JSON path such as `$.items[0].name`, `$.items[*].id`, `$['a key']` or
 * `$["a\nkey"]`; calls `fail` with the problem for a path that does not start with `$` or does
 * not parse.
 */
export function parseJsonPath(path: unknown, fail: (problem: string) => never): JsonPathSegment[] {
  if (typeof path !== 'string' || !path.startsWith('$')) {
    return fail(`${JSON.stringify(path) ?? String(path)} must start with $.`);
  }
  const segments: JsonPathSegment[] = [];
  const token = new RegExp(PATH_TOKEN); // a fresh lastIndex for every call
  token.lastIndex = 1;
  while (token.lastIndex < path.length) {
    const at = token.lastIndex;
    const match = token.exec(path);
    if (!match) {
      return fail(
        `unexpected ${JSON.stringify(path.slice(at, at + 10))} at character ${at} of ${JSON.stringify(path)}.`,
      );
    }
    const [, name, index, single, double] = match;
    if (name !== undefined) segments.push({ kind: 'key', key: name });
    else if (index !== undefined) segments.push({ kind: 'index', index: Number(index) });
    else if (single !== undefined)
      segments.push({ kind: 'key', key: single.replace(/\\(.)/g, '$1') });
    else if (double !== undefined) segments.push({ kind: 'key', key: jsonKey(double) });
    else segments.push({ kind: 'all' });
  }
  return segments;
}

/**
 * What a parsed JSON path selects in `output`, as indented JSON: the one value it names, or the
 * array of every value when it holds a `*`; an empty string when it selects nothing. Calls `fail`
 * for an output that is not JSON, or a selection nested too deeply to print (JSON.parse reads any
 * depth, printing recurses). A wildcard over an array of any size is gathered in a loop, never
 * spread into a call's arguments.
 */
export function selectJsonPath(
  output: string,
  path: string,
  segments: readonly JsonPathSegment[],
  fail: (problem: string) => never,
): string {
  let document: unknown;
  try {
    document = JSON.parse(output);
  } catch {
    return fail('the output is not JSON.');
  }
  let nodes: unknown[] = [document];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const node of nodes) {
      if (segment.kind === 'all') {
        // A loop, not push(...items): spreading a huge array overflows the call stack.
        if (Array.isArray(node)) for (const item of node) next.push(item);
        else if (typeof node === 'object' && node !== null)
          for (const value of Object.values(node)) next.push(value);
      } else if (segment.kind === 'index') {
        if (Array.isArray(node) && segment.index < node.length) next.push(node[segment.index]);
      } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, segment.key)) {
        next.push((node as Record<string, unknown>)[segment.key]);
      }
    }
    nodes = next;
  }
  if (nodes.length === 0) return '';
  const wildcard = segments.some((segment) => segment.kind === 'all');
  try {
    return JSON.stringify(wildcard ? nodes : nodes[0], null, 2);
  } catch (error) {
    // A value nested tens of thousands of levels deep overflows the stack when printed, and a
    // deeply nested one printed with indentation can outgrow the longest string: say which, and
    // how to get at it, instead of a RangeError.
    if (!(error instanceof RangeError)) throw error;
    const problem = /string length/i.test(error.message)
      ? 'too large to print with indentation'
      : 'nested too deeply to print';
    return fail(
      `the selected JSON is ${problem} (${JSON.stringify(path)}); select a deeper path, or read it by lines.`,
    );
  }
}

// --- internal helpers ---

const PATH_TOKEN =
  /\.([A-Za-z_$][\w$-]*)|\.\*|\[\*\]|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;

/**
 * A double-quoted key read as a JSON string, so every escape means what it means in the JSON the
 * key came from (`\n`, `\u00e9`, `\"`); a key that is not valid JSON keeps the plain reading,
 * a backslash taking the next character as it is.
 */
function jsonKey(quoted: string): string {
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    return quoted.replace(/\\(.)/g, '$1');
  }
}
