/** ANSI styles for the `ctxkit` command's text, or none. */
export interface TerminalStyle {
  /**
   * Styles text for headings.
   *
   * @param text - the text
   * @returns the text, styled
   */
  bold(text: string): string;
  /**
   * Styles text for secondary figures.
   *
   * @param text - the text
   * @returns the text, styled
   */
  dim(text: string): string;
  /**
   * Styles text for dropped messages.
   *
   * @param text - the text
   * @returns the text, styled
   */
  red(text: string): string;
  /**
   * Styles text for changed messages.
   *
   * @param text - the text
   * @returns the text, styled
   */
  yellow(text: string): string;
  /**
   * Styles text for kept messages.
   *
   * @param text - the text
   * @returns the text, styled
   */
  green(text: string): string;
}

/**
 * Whether to color what goes to `stream`: only a terminal, and never when `NO_COLOR` is set to
 * anything but the empty string (https://no-color.org).
 *
 * @param stream - where the text goes, such as `process.stdout`
 * @param env - the environment
 * @returns whether to color
 */
export function wantsColor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

/**
 * The styles: ANSI escape codes when `color`, else each returns its text as it is.
 *
 * @param color - whether to color (see {@link wantsColor})
 * @returns the styles
 */
export function terminalStyle(color: boolean): TerminalStyle {
  const code = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: code(1, 22),
    dim: code(2, 22),
    red: code(31, 39),
    yellow: code(33, 39),
    green: code(32, 39),
  };
}
