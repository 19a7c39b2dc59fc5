/**
 * The layering of src/, checked by `npm run lint` (dependency-cruiser). docs/architecture.md draws
 * the floors; each rule's comment says what it keeps.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The floors of src/, lowest first. A module imports only modules of its own floor or of a lower one;
 * a name ending in `/` is a directory, any other a file of src/.
 */
const FLOORS = [
  {
    name: 'leaves',
    what: 'modules that import nothing of src/ but each other',
    paths: [
      'errors.ts',
      'bounded-memo.ts',
      'limits.ts',
      'project-root.ts',
      'node-version.ts',
      'compile-cache.ts',
      'last-resort.ts',
    ],
  },
  { name: 'domain', what: 'pure rules, the data-event contract, the item list', paths: ['domain/'] },
  { name: 'settings', what: 'configuration and the logger', paths: ['config.ts', 'logger.ts'] },
  {
    name: 'database',
    what: 'clients, the executor, migrations, the LISTEN and leader sessions, and the request deadline that cancels statements',
    paths: ['db/', 'deadline.ts', 'generated/'],
  },
  { name: 'repositories', what: 'the SQL, by domain', paths: ['repositories/'] },
  {
    name: 'http',
    what: 'HTTP protocol helpers: paths, header names, errors, caching headers, compression',
    paths: ['http/'],
  },
  {
    name: 'writers and admission',
    what: 'data events, ingestion, the demo data and start-up, API keys and limits',
    paths: ['events/', 'ingest/', 'demo/', 'security/', 'bootstrap.ts'],
  },
  { name: 'services', what: 'one function per query', paths: ['services/'] },
  { name: 'contract', what: 'row contracts, parameters, meta', paths: ['contract/'] },
  {
    name: 'surfaces',
    what: 'operations and the GraphQL, REST and MCP surfaces',
    paths: ['operations/', 'graphql/', 'rest/', 'mcp/'],
  },
  {
    name: 'graphql schema',
    what: "the GraphQL fields, built on the surfaces' builder and row types, and the schema printer",
    paths: ['graphql/schema/', 'graphql/print.ts'],
  },
  { name: 'ops', what: 'health, ingest status, metrics, the request log', paths: ['ops/'] },
  {
    name: 'entry',
    what: 'the server, the command-line tools, the dashboard bundle',
    paths: ['app.ts', 'main.ts', 'cli/', 'dashboard/'],
  },
];

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pattern = (p) => (p.endsWith('/') ? `^src/${escapeRegExp(p)}` : `^src/${escapeRegExp(p)}$`);

const unplaced = readdirSync(join(__dirname, 'src')).filter(
  (entry) => !FLOORS.some((f) => f.paths.includes(entry) || f.paths.includes(`${entry}/`)),
);
if (unplaced.length) throw new Error(`.dependency-cruiser.cjs: src/ entries on no floor: ${unplaced.join(', ')}`);

const patternsOf = (floor) => floor.paths.map(pattern);
/** Paths of other floors inside one of this floor's directories (graphql/schema/ inside graphql/): not this floor's. */
const carvedOut = (floor) =>
  FLOORS.filter((other) => other !== floor).flatMap((other) =>
    other.paths
      .filter((p) => floor.paths.some((dir) => dir.endsWith('/') && p !== dir && p.startsWith(dir)))
      .map(pattern),
  );

/** One rule per floor, generated from FLOORS: nothing of a higher floor. */
const layerOrder = FLOORS.slice(0, -1).map((floor, i) => ({
  name: 'layer-order',
  comment:
    `Floor ${i + 1} "${floor.name}" (${floor.what}) imports only its own floor or lower ones, never ` +
    FLOORS.slice(i + 1)
      .map((f) => f.name)
      .join(', '),
  severity: 'error',
  from: { path: patternsOf(floor), pathNot: carvedOut(floor) },
  to: { path: FLOORS.slice(i + 1).flatMap(patternsOf) },
}));

const DATABASE_DRIVERS = [
  '^node_modules/(pg|pg-copy-streams|@prisma/[^/]+|prisma|@electric-sql/pglite[^/]*|pglite-prisma-adapter)/',
  '^src/generated/prisma/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerOrder,
    {
      name: 'sql-outside-the-data-layer',
      comment:
        'Only src/repositories/ and src/db/ talk to the database drivers, Prisma and its generated client; ' +
        'the rest of src/ reaches the database through them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(repositories|db|generated)/'] },
      to: { path: DATABASE_DRIVERS },
    },
    {
      name: 'surfaces-go-through-services',
      comment:
        'GraphQL resolvers, REST endpoints, operations, HTTP and ops handlers and the row contract read data ' +
        'through src/services/, never from src/repositories/ directly (the floors allow it; this rule does not).',
      severity: 'error',
      from: { path: '^src/(graphql|rest|operations|http|ops|contract)/' },
      to: { path: '^src/repositories/' },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycle, type-only imports included: a cycle hides which module is the lower one.',
      severity: 'error',
      from: { pathNot: ['^src/db/'] },
      to: { circular: true },
    },
    {
      name: 'no-runtime-cycles-in-db',
      comment:
        'src/db/ declares the Database type beside its implementation in client.ts, and pooler.ts, ' +
        'writable.ts and replicas.ts import it back as a type: those type-only cycles are allowed ' +
        '(moving the type out would leave client.ts a file of re-exports); a cycle of runtime imports is not.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'tests-and-tools-not-in-src',
      comment: 'src/ never imports test/, bench/ or scripts/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
