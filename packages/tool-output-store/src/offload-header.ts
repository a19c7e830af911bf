/** What the first line of an offloaded tool output says about the output it stands for. */
export interface OffloadHeader {
  /** The tool that produced the output. */
  toolName: string;
  /** Where the full output is stored. */
  ref: string;
  /** Lines of the full output. */
  lines: number;
  /** Characters of the full output. */
  chars: number;
}

/**
 * The first line of an offloaded output, such as the one below; {@link parseOffloadHeader} reads
 * it back.
 *
 * ```text
 * [get_logs output stored as ref=toolout_0123456789abcdef: 200 lines, 24566 characters; summary below, call get_tool_output with this ref for details]
 * ```
 *
 * @param header - the tool, the ref and the size of the full output
 * @returns the header line, without a line break
 */
export function formatOffloadHeader(header: OffloadHeader): string {
  const { toolName, ref, lines, chars } = header;
  return (
    `[${toolName} output stored as ref=${ref}: ${plural(lines, 'line')}, ${plural(chars, 'character')}; ` +
    'summary below, call get_tool_output with this ref for details]'
  );
}

/**
 * The header of an offloaded output, or `undefined` when `output` does not start with one.
 *
 * @param output - a tool output's text
 * @returns what the header says, or `undefined`
 */
export function parseOffloadHeader(output: string): OffloadHeader | undefined {
  const match = HEADER_PATTERN.exec(output);
  if (!match) return undefined;
  const [, toolName, ref, lines, chars] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  return { toolName, ref, lines: Number(lines), chars: Number(chars) };
}

// --- internal helpers ---

const HEADER_PATTERN =
  /^\[(\S+) output stored as ref=(toolout_[0-9a-f]{16}): (\d+) lines?, (\d+) characters?; summary below, call get_tool_output with this ref for details\]/;

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
