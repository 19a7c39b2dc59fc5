/**
 * Builds `dist/` for the npm scripts, like make: with `--if-stale`, only when an input changed since
 * the last successful build. Every `npm start` / `npm run keys|ingest|db:*` runs it first; when
 * `dist/` is up to date it costs one walk of the inputs' mtimes (tens of ms) instead of a compile.
 *
 * Usage: `node scripts/build.mjs [--if-stale] [app|bench]`
 *   app (default): tsc -p tsconfig.build.json, then the dashboard (codegen + esbuild) into dist/web
 *   bench:         tsc -p tsconfig.bench.json (the app and the bench into dist/)
 * A successful build writes `dist/.<target>.stamp`, dated when the build started (so a file saved
 * during a build makes the next run build again). Plain JavaScript: it must run before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const NPM = process.env.npm_execpath;
const COMMON = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
];

/** What each target reads, what it must have written, and how it is built. */
const TARGETS = {
  app: {
    inputs: [...COMMON, 'schema.graphql', 'codegen.ts', 'scripts/build-dashboard.ts'],
    outputs: ['dist/src/main.js', 'dist/web/index.html'],
    steps: [
      [process.execPath, [TSC, '-p', 'tsconfig.build.json']],
      NPM
        ? [process.execPath, [NPM, 'run', 'build:dashboard', '--silent']]
        : ['npm', ['run', 'build:dashboard', '--silent']],
    ],
  },
  bench: {
    inputs: [...COMMON, 'bench', 'tsconfig.bench.json'],
    outputs: ['dist/src/main.js', 'dist/bench/run.js'],
    steps: [[process.execPath, [TSC, '-p', 'tsconfig.bench.json']]],
  },
};

/** Newest mtime (ms) of a file or of every file below a folder (generated dashboard types excepted: codegen writes them). */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'gql' && path.endsWith(join('src', 'dashboard'))) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** True when an output is missing or an input is newer than the stamp of the last build. */
export function isStale(target, root = ROOT) {
  const spec = TARGETS[target];
  const stamp = join(root, `dist/.${target}.stamp`);
  if (!existsSync(stamp) || spec.outputs.some((o) => !existsSync(join(root, o)))) return true;
  const built = statSync(stamp).mtimeMs;
  return spec.inputs.some((input) => newestMtime(join(root, input)) > built);
}

function build(target) {
  const started = new Date();
  for (const [command, args] of TARGETS[target].steps) {
    const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const stamp = join(ROOT, `dist/.${target}.stamp`);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${started.toISOString()}\n`);
  utimesSync(stamp, started, started);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const target = args.find((a) => !a.startsWith('--')) ?? 'app';
  if (!(target in TARGETS)) {
    console.error(`build: unknown target '${target}' (app or bench)`);
    process.exit(2);
  }
  if (!args.includes('--if-stale') || isStale(target)) build(target);
}
