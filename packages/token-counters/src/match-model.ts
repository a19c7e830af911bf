/**
 * The key of `table` a model id belongs to: the longest key that is the id itself or a prefix of
 * it followed by `-` (a snapshot or variant: `gpt-4o-2024-08-06` belongs to `gpt-4o`,
 * `gpt-4o-mini` to `gpt-4o-mini`). A gateway prefix up to the last `/` (`openai/gpt-4o`) is
 * ignored.
 *
 * @param model - The model id.
 * @param table - The table whose keys are family ids.
 * @returns the matching key, or undefined when none matches
 */
export function matchModel(
  model: string,
  table: Readonly<Record<string, unknown>>,
): string | undefined {
  const id = model.slice(model.lastIndexOf('/') + 1);
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (
      (id === key || id.startsWith(`${key}-`)) &&
      (best === undefined || key.length > best.length)
    ) {
      best = key;
    }
  }
  return best;
}
