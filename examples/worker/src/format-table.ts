/** A table cell: numbers are right-aligned and written with thousands separators. */
export type TableCell = string | number;

/**
 * A plain-text table: a header row, a rule, then the rows, columns padded to their widest cell
 * and separated by two spaces. Newlines inside a cell are shown as `⏎`.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly TableCell[])[],
): string {
  const text = (cell: TableCell | undefined) =>
    typeof cell === 'number' ? cell.toLocaleString('en') : (cell ?? '').replace(/\r?\n/g, ' ⏎ ');
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  const cells = rows.map((row) => header.map((_, column) => text(row[column])));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => (row[column] as string).length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => {
        const width = widths[column] as number;
        return numeric[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join(
    '\n',
  );
}
