/**
 * The name among `names` closest to `name` by edit distance (insertions, deletions, substitutions
 * and swaps of two neighbouring letters, case ignored), when it is close enough to be a slip of
 * the keyboard: at most one edit per three letters of the candidate, and at most three. Used to
 * say "did you mean maxTokens?" of a misspelt option.
 *
 * @param name - the name given
 * @param names - the names known
 * @returns the closest known name, or `undefined` when none is close
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const given = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of names) {
    const limit = Math.min(3, Math.max(1, Math.ceil(candidate.length / 3)));
    const distance = editDistance(given, candidate.toLowerCase(), limit);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

// --- internal helpers ---

/**
 * The optimal string alignment distance of `a` and `b`, or `limit + 1` as soon as it is known to
 * exceed `limit` (so a long name costs no more than a short one).
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (beforePrevious[j - 2] as number) + 1);
      }
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
