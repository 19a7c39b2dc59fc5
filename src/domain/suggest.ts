/** Largest edit distance at which a known code still counts as close (half the text's length at most). */
const MAX_DISTANCE = 2;
/** Most suggestions given for one unknown code. */
const MAX_SUGGESTIONS = 3;

/** Levenshtein distance between two strings (insertions, deletions, substitutions each cost 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Known codes close to an unknown one, case-insensitively (`-` read as `_`): the codes it is a
 * prefix of (shortest first) when there are any, else the codes within edit distance 2, and at
 * most half the text's length (nearest first); ties in code order. At most 3; empty when nothing
 * is close.
 */
export function closestCodes(text: string, codes: readonly string[]): string[] {
  const wanted = text.trim().toUpperCase().replaceAll('-', '_');
  if (wanted === '') return [];
  const sorted = [...codes].sort();
  const prefixed = sorted.filter((c) => c.toUpperCase().startsWith(wanted)).sort((x, y) => x.length - y.length);
  if (prefixed.length) return prefixed.slice(0, MAX_SUGGESTIONS);
  const limit = Math.min(MAX_DISTANCE, Math.floor(wanted.length / 2));
  return sorted
    .map((code) => ({ code, distance: editDistance(wanted, code.toUpperCase()) }))
    .filter((c) => c.distance <= limit)
    .sort((x, y) => x.distance - y.distance)
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.code);
}

const alternatives = (codes: readonly string[]): string =>
  codes.length > 1 ? `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}` : (codes[0] ?? '');

/**
 * The suggestion clause after a list of unknown texts: `"; did you mean DE_LU?"` for one text,
 * `"; did you mean DE_LU for DE, FR for FRR?"` for several, `""` when nothing is close.
 * @param suggestions the unknown texts, each with its {@link closestCodes}.
 */
export function didYouMean(suggestions: readonly (readonly [text: string, codes: readonly string[]])[]): string {
  const known = suggestions.filter(([, codes]) => codes.length);
  if (!known.length) return '';
  if (suggestions.length === 1) return `; did you mean ${alternatives(known[0]![1])}?`;
  return `; did you mean ${known.map(([text, codes]) => `${alternatives(codes)} for ${text}`).join(', ')}?`;
}
