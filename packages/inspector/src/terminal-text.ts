/**
 * Stored text made safe to print on a terminal: every C0 control character (U+0000–U+001F),
 * DEL (U+007F) and C1 control character (U+0080–U+009F) becomes a visible escape such as
 * `\u001b`, so text a database holds cannot move the cursor, set the window title, write the
 * clipboard (OSC 52) or plant links (OSC 8). With `multiline`, line feeds and tabs are kept, for
 * a block of several lines; carriage returns are escaped anyway (they overwrite a line).
 *
 * @param text - text read from a database (or anything else the command did not write itself)
 * @param multiline - keep `\n` and `\t`
 * @returns the text with its control characters escaped; text without any is returned as it is
 */
export function terminalText(text: string, multiline = false): string {
  return text.replace(multiline ? CONTROL_BUT_LINES : CONTROL, escapeOf);
}

// --- internal helpers ---

/** C0, DEL and C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** C0 but tab and line feed, DEL and C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escapeOf(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
