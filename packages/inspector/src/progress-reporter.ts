/** Where progress goes: a writable stream, such as `process.stderr`. */
export interface ProgressStream {
  /** Whether it is a terminal (progress then rewrites one line). */
  isTTY?: boolean;
  /**
   * Writes text.
   *
   * @param text - the text
   * @returns whatever the stream returns
   */
  write(text: string): unknown;
}

/**
 * A progress callback for a long read (see `ReadBuildsOptions.onProgress`): silent while the
 * read fits in one page, then `label: read of total` after each page, rewritten in place on a
 * terminal and one line per page elsewhere (a log), and a line break at the end on a terminal.
 *
 * @param stream - where progress goes (stderr: stdout holds the result)
 * @param label - what is being read, such as `reading builds of ops-demo`
 * @returns the callback
 */
export function progressReporter(
  stream: ProgressStream,
  label: string,
): (read: number, total: number) => void {
  let pages = 0;
  return (read, total) => {
    pages++;
    const done = read >= total;
    if (pages === 1 && done) return;
    const line = `${label}: ${read.toLocaleString('en')} of ${total.toLocaleString('en')}`;
    if (stream.isTTY === true) stream.write(`\r${line}${done ? '\n' : ''}`);
    else stream.write(`${line}\n`);
  };
}
