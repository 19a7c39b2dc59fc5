/**
 * `compute` remembered per key, for keys a server sees again and again (years, Accept headers):
 * at most `max` results are held, and when that many are, the table starts over, so varied keys
 * cost what they cost without the memo and never more memory. Keys `keep` refuses (too long to be
 * worth holding) are computed each time.
 */
export function boundedMemo<K, V extends NonNullable<unknown>>(
  max: number,
  compute: (key: K) => V,
  keep: (key: K) => boolean = () => true,
): (key: K) => V {
  const results = new Map<K, V>();
  return (key) => {
    let value = results.get(key);
    if (value === undefined) {
      value = compute(key);
      if (keep(key)) {
        if (results.size >= max) results.clear();
        results.set(key, value);
      }
    }
    return value;
  };
}
