/**
 * Generators of hostile input for the property-based sweeps (fast-check), and the property every
 * answer to them must hold: a client error that names what was wrong, never a server error and never
 * an internal detail (stack, SQL, file path).
 */
import fc from 'fast-check';

/** Hand-picked values that have broken parsers, SQL builders or date arithmetic somewhere. */
export const CLASSIC: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%',
  '_',
  '*',
  '\\',
  "'",
  '"',
  '`',
  '$$',
  ';',
  '--',
  '/*',
  '{}',
  '[]',
  'null',
  'undefined',
  "' OR 1=1 --",
  '"; DROP TABLE price_point; --',
  "DE_LU'; SELECT pg_sleep(10); --",
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  'now-2026y',
  'now-999999d',
  'now-99999999999999999999y',
  'now+1d',
  'now-0d',
  'now-1.5d',
  'now-1e9w',
  'now--1d',
  'NOW',
  'now-1x',
  '0000-01-01',
  '-271821-04-20',
  '+275760-09-13T00:00:00Z',
  '99999-01-01',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  '2024-01-01T00:00:00-99:99',
  '2024-01-01T00:00:00+14:01',
  '2024-02-30',
  '2024-13-01',
  '2024-01-01T24:00:00',
  '2024-01-01T23:60:00Z',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  '99999999999999999999999',
  '-99999999999999999999999',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '-0',
  '0.0000000001',
  '1e-320',
  'PHYSICAL',
  'native',
  'NATIVE',
  '1h',
  '1Y',
  'auto ',
  'DE_LU->',
  '->FR',
  'DE_LU->FR->NL',
  'DE_LU-%3EFR',
  'DE_LU->DE_LU',
  'XX->YY',
  'de_lu',
  '10Y1001A1001A82H',
  'ＤＥ_ＬＵ',
  'DE\u200bLU',
  'Ǆ',
  '🙂'.repeat(50),
  '\ud800',
  'a'.repeat(5000),
];

/** Any hostile text: the classics, arbitrary unicode, long runs, and mixtures of them. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CLASSIC) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CLASSIC), fc.constantFrom(...CLASSIC)).map(([a, b]) => a + b) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
);

/** A JSON value of any shape, as a decoded cursor or a variable could hold. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.tuple(
    fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null)),
    fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
  ),
  fc.constantFrom(
    ['x', 'DE_LU'],
    [null, null],
    [1e308, 'DE_LU'],
    [-1, 'DE_LU'],
    [8.64e15 + 1, 'FR'],
    [Number.MAX_SAFE_INTEGER, 'x', 1],
    [],
  ),
);

/** Cursor-like texts: base64 of hostile JSON, plain hostile text, or truncated base64. */
export const hostileCursor: fc.Arbitrary<string> = fc.oneof(
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64')),
  hostileText,
);

/** Texts that must never reach a client: stack frames, SQL engine messages, source paths. */
const LEAKS: readonly RegExp[] = [
  /\n\s+at\s/,
  /\bat\s+\S+\s+\((?:file:|\/|node:)/,
  /\.(?:ts|js|mjs):\d+/,
  /node_modules/,
  /\/work\//,
  /\/src\//,
  /syntax error at or near/i,
  /\brelation "/,
  /\bcolumn "/,
  /violates .* constraint/,
  /invalid input syntax/i,
  /out of range for type/i,
  /PrismaClient/,
  /\bSQLSTATE\b/,
  /Internal Server Error/,
  /INTERNAL_SERVER_ERROR/,
];

/**
 * The leak found in a response body, or null. Echoes of the caller's own values (`sent`, raw or
 * as JSON text) are left out first, since a caller may send anything.
 */
export function leakIn(body: string, sent: readonly string[]): string | null {
  let scanned = body;
  for (const s of [...sent].sort((a, b) => b.length - a.length)) {
    if (!s) continue;
    scanned = scanned.split(JSON.stringify(s).slice(1, -1)).join('').split(s).join('');
  }
  const hit = LEAKS.find((re) => re.test(scanned));
  return hit ? `${hit} in ${scanned.slice(0, 600)}` : null;
}

/** Values of one query parameter: absent, one value, repeated, or in PHP's array form. */
export interface ParamValue {
  readonly name: string;
  readonly values: readonly string[];
  readonly arrayForm: boolean;
}

/** A query parameter named `name` with one to three hostile values, sometimes as `name[]`. */
export function hostileParam(name: string): fc.Arbitrary<ParamValue> {
  return fc.record({
    name: fc.constant(name),
    values: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    arrayForm: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });
}

/** The URL query text of some parameters. */
export function queryText(params: readonly ParamValue[]): string {
  const search = new URLSearchParams();
  for (const p of params) for (const v of p.values) search.append(p.arrayForm ? `${p.name}[]` : p.name, v);
  return search.toString();
}
