// Regenerates src/domain/catalogue-data.ts: node scripts/build-catalogue.mjs > src/domain/catalogue-data.ts
import { readFileSync } from 'node:fs';
const names = {
  AL: 'Albania',
  AT: 'Austria',
  BA: 'Bosnia and Herzegovina',
  BE: 'Belgium',
  BG: 'Bulgaria',
  CH: 'Switzerland',
  CZ: 'Czechia',
  DE_LU: 'Germany-Luxembourg',
  DK_1: 'Denmark West (DK1)',
  DK_2: 'Denmark East (DK2)',
  EE: 'Estonia',
  ES: 'Spain',
  FI: 'Finland',
  FR: 'France',
  GB: 'Great Britain',
  GR: 'Greece',
  HR: 'Croatia',
  HU: 'Hungary',
  IE_SEM: 'Ireland (SEM)',
  IT_NORD: 'Italy North',
  IT_CNOR: 'Italy Centre-North',
  IT_CSUD: 'Italy Centre-South',
  IT_SUD: 'Italy South',
  IT_CALA: 'Italy Calabria',
  IT_SICI: 'Italy Sicily',
  IT_SARD: 'Italy Sardinia',
  LT: 'Lithuania',
  LV: 'Latvia',
  ME: 'Montenegro',
  MK: 'North Macedonia',
  NL: 'Netherlands',
  NO_1: 'Norway South-East (NO1)',
  NO_2: 'Norway South-West (NO2)',
  NO_3: 'Norway Central (NO3)',
  NO_4: 'Norway North (NO4)',
  NO_5: 'Norway West (NO5)',
  PL: 'Poland',
  PT: 'Portugal',
  RO: 'Romania',
  RS: 'Serbia',
  SE_1: 'Sweden Luleå (SE1)',
  SE_2: 'Sweden Sundsvall (SE2)',
  SE_3: 'Sweden Stockholm (SE3)',
  SE_4: 'Sweden Malmö (SE4)',
  SI: 'Slovenia',
  SK: 'Slovakia',
};
const rows = readFileSync(
  new URL('../test/fixtures/entsoe/', import.meta.url).pathname + 'eic_areas_entsoe-py.csv',
  'utf8',
)
  .trim()
  .split('\n')
  .slice(1);
const byKey = {};
for (const r of rows) {
  const m0 = r.replace(/\r$/, '');
  const m = m0.match(/^([^,]+),([^,]+),(".*?"|[^,]*),(.+)$/);
  byKey[m[1]] = { eic: m[2], tz: m[4] };
}
const zones = Object.keys(names)
  .sort()
  .map((k) => ({ code: k, eic: byKey[k].eic, name: names[k], timeZone: byKey[k].tz }));
const nb = readFileSync(
  new URL('../test/fixtures/entsoe/', import.meta.url).pathname + 'bidding_zone_neighbours_entsoe-py.csv',
  'utf8',
)
  .trim()
  .split('\n')
  .slice(1);
const set = new Set();
for (const r of nb) {
  const [a, b] = r.split(',');
  if (names[a] && names[b] && a !== b) set.add([a, b].sort().join('|'));
}
const borders = [...set].sort().map((s) => s.split('|'));
let out = `/** Generated from the entsoe-py area and neighbour catalogues in test/fixtures/entsoe (see scripts/). */\n\n`;
out += `/** A bidding zone of the catalogue: ENTSO-E short code, EIC, English name, IANA time zone. */\nexport interface CatalogueZone {\n  readonly code: string;\n  readonly eic: string;\n  readonly name: string;\n  readonly timeZone: string;\n}\n\n`;
out +=
  `/** Current European bidding zones served by the API. */\nexport const ZONES: readonly CatalogueZone[] = [\n` +
  zones
    .map((z) => `  { code: '${z.code}', eic: '${z.eic}', name: '${z.name}', timeZone: '${z.timeZone}' },`)
    .join('\n') +
  `\n];\n\n`;
out +=
  `/** Borders between catalogue zones as [A, B] with A's code sorting first (the stored orientation). */\nexport const BORDERS: readonly (readonly [string, string])[] = [\n` +
  borders.map(([a, b]) => `  ['${a}', '${b}'],`).join('\n') +
  `\n];\n`;
process.stdout.write(out);
console.error(zones.length, 'zones', borders.length, 'borders');
