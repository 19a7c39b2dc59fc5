/**
 * The one way Vary is written: every part of the server that makes a response depend on a request
 * header adds that header's name; names are merged (case-insensitively, first spelling kept), never
 * overwritten, so a shared cache sees every header the representation was chosen by.
 */

/** The field names of a Vary value, trimmed, empty items dropped. */
export function varyNames(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
}

/** A Vary value listing the names of `value` and then those of `added` not already in it. */
export function mergedVary(value: string | null | undefined, ...added: string[]): string {
  const names = varyNames(value);
  const seen = new Set(names.map((n) => n.toLowerCase()));
  for (const name of added.flatMap(varyNames)) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names.join(', ');
}

/** Adds `names` (each a name or a comma-separated list) to the Vary of `headers`. */
export function addVary(headers: Headers, ...names: string[]): void {
  const merged = mergedVary(headers.get('vary'), ...names);
  if (merged) headers.set('vary', merged);
}
