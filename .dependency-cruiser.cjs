/**
 * The layering of src/, checked by `npm run lint` (dependency-cruiser). docs/architecture.md explains
 * the layers; each rule's comment says what it keeps.
 */
const DATABASE_DRIVERS = [
  '^node_modules/(pg|pg-copy-streams|@prisma/[^/]+|prisma|@electric-sql/pglite[^/]*|pglite-prisma-adapter)/',
  '^src/generated/prisma/',
];

/**
 * Known modules outside the data layer that use `pg` directly: the data events listener's LISTEN
 * session and the ingest leader's advisory-lock session each open a `pg.Client` of their own, and
 * the metrics read a pool's counters through its type. They belong under src/db/.
 */
const KNOWN_DRIVER_USERS = ['^src/events/listener\\.ts$', '^src/ingest/leader\\.ts$', '^src/http/metrics\\.ts$'];

/**
 * Known: the repository that writes the data event's NOTIFY in the ingestion transaction takes the
 * payload's type and channel name from src/events/data-events.ts.
 */
const KNOWN_UPWARD_IMPORTS = ['^src/repositories/ingest/events\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'sql-outside-the-data-layer',
      comment:
        'Only src/repositories/ and src/db/ talk to the database drivers, Prisma and its generated client; ' +
        'the rest of src/ reaches the database through them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(repositories|db|generated)/', ...KNOWN_DRIVER_USERS] },
      to: { path: DATABASE_DRIVERS },
    },
    {
      name: 'domain-is-pure',
      comment:
        'src/domain/ holds pure rules: it imports only itself, libraries and the leaf modules ' +
        'src/errors.ts and src/bounded-memo.ts, never a layer above it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/(errors|bounded-memo)\\.ts$'] },
    },
    {
      name: 'leaves-stay-leaves',
      comment: 'The modules domain/ may import import nothing of src/ themselves.',
      severity: 'error',
      from: { path: '^src/(errors|bounded-memo)\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'surfaces-go-through-services',
      comment:
        'GraphQL resolvers, REST endpoints, HTTP handlers and the row contract read data through ' +
        'src/services/, never from src/repositories/ directly.',
      severity: 'error',
      from: { path: '^src/(graphql|rest|http|contract)/' },
      to: { path: '^src/repositories/' },
    },
    {
      name: 'repositories-do-not-look-up',
      comment: 'Repositories serve the layers above them and import none of them.',
      severity: 'error',
      from: { path: '^src/repositories/', pathNot: KNOWN_UPWARD_IMPORTS },
      to: { path: '^src/(services|graphql|rest|http|security|events|ingest|demo|cli|dashboard)/' },
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
