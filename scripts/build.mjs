/**
 * Builds `dist/` for the npm scripts, like make: with `--if-stale`, only when an input changed since
 * the last successful build. Every `npm start` / `npm run keys|ingest|db:*` runs it first (`server`);
 * when `dist/` is up to date it costs one walk of the inputs' mtimes (tens of ms) instead of a compile.
 *
 * Usage: `node scripts/build.mjs [--if-stale] [app|server|web|bench]`
 *   app (default): server and web, side by side
 *   server:        tsc -p tsconfig.build.json into dist/src; with `--if-stale` (npm start and the CLIs)
 *                  transpiled by esbuild file by file instead (under a second against ~8 s: the same
 *                  modules, no type check, which `npm run typecheck` and the tests do)
 *   web:           the dashboard (codegen + esbuild) into dist/web; `npm start` runs it beside the
 *                  database's preparation (src/http/dashboard-build.ts), not before the server starts
 *   bench:         tsc -p tsconfig.bench.json (the app and the bench into dist/), and web
 * A build of a target with steps removes `dist/.<target>.stamp` as it begins (a killed or failed
 * build leaves none) and writes it once it succeeded, dated when the build started, holding a
 * content hash of its input files as they were then. A run is stale when an output is missing, or when an
 * input file is newer than the stamp AND the inputs' content hash differs from the stamp's (a file
 * saved during a build makes the next run build again; a file touched but unchanged, a `git
 * checkout` back and forth, or the generated output of codegen and `prisma generate` does not).
 * Folders' own mtimes never count. Plain JavaScript: it must run before anything is compiled.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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

/** What each target reads, what it must have written, how it is built, and the targets it builds too. */
const TARGETS = {
  server: {
    inputs: COMMON,
    outputs: ['dist/src/main.js'],
    steps: [[process.execPath, [TSC, '-p', 'tsconfig.build.json']]],
  },
  web: {
    inputs: [...COMMON, 'schema.graphql', 'codegen.dashboard.ts', 'scripts/build-dashboard.ts'],
    outputs: ['dist/web/index.html', 'dist/web/favicon.svg', 'dist/web/persisted-documents.json'],
    steps: [
      NPM
        ? [process.execPath, [NPM, 'run', 'build:dashboard', '--silent']]
        : ['npm', ['run', 'build:dashboard', '--silent']],
    ],
  },
  app: { parts: ['server', 'web'] },
  bench: {
    inputs: [...COMMON, 'bench', 'tsconfig.bench.json'],
    outputs: ['dist/src/main.js', 'dist/bench/run.js'],
    steps: [[process.execPath, [TSC, '-p', 'tsconfig.bench.json']]],
    parts: ['web'],
  },
};

/** Generated (git-ignored) folders below the inputs: written by `prisma generate` and by codegen during the build. */
const GENERATED = [join('src', 'generated'), join('src', 'dashboard', 'gql')];

/** The input files of `target` below `root` (generated folders excepted), sorted, as paths relative to `root`. */
function inputFiles(target, root) {
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    const rel = relative(root, path);
    if (GENERATED.includes(rel)) return;
    if (!statSync(path).isDirectory()) {
      files.push(rel.split(sep).join('/'));
      return;
    }
    for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  for (const input of TARGETS[target].inputs) walk(join(root, input));
  return files.sort();
}

/** SHA-256 (hex) of the input files' paths and contents. */
export function inputHash(target, root = ROOT) {
  const hash = createHash('sha256');
  for (const file of inputFiles(target, root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The targets building `target` builds: its parts, and itself when it has steps of its own. */
function units(target) {
  const spec = TARGETS[target];
  return [...(spec.parts ?? []), ...(spec.steps ? [target] : [])];
}

const stampOf = (target, root) => join(root, `dist/.${target}.stamp`);

/** {@link isStale} of one target with steps of its own. */
function unitStale(target, root) {
  const spec = TARGETS[target];
  const stamp = stampOf(target, root);
  if (!existsSync(stamp) || spec.outputs.some((o) => !existsSync(join(root, o)))) return true;
  const built = statSync(stamp).mtimeMs;
  const touched = inputFiles(target, root).some((file) => statSync(join(root, file)).mtimeMs > built);
  if (!touched) return false;
  const recorded = readFileSync(stamp, 'utf8').split('\n')[1];
  return recorded !== inputHash(target, root);
}

/**
 * True when `target` or one of its parts has an output missing, no stamp, or an input file newer
 * than its last build whose inputs' content differs.
 */
export function isStale(target, root = ROOT) {
  return units(target).some((unit) => unitStale(unit, root));
}

/** Runs a command; resolves with its exit status. */
function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('close', (status) => done(status ?? 1));
    child.on('error', () => done(1));
  });
}

/** The server's TypeScript (tsconfig.build.json's input: src without src/dashboard) into dist/src, by esbuild, no type check. */
async function transpileServer() {
  const { build: esbuild } = await import('esbuild');
  const files = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (full !== join(ROOT, 'src', 'dashboard')) walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  walk(join(ROOT, 'src'));
  try {
    await esbuild({
      entryPoints: files,
      outdir: join(ROOT, 'dist/src'),
      outbase: join(ROOT, 'src'),
      format: 'esm',
      platform: 'node',
      target: 'node22',
      sourcemap: true,
      logLevel: 'warning',
    });
    return 0;
  } catch {
    return 1;
  }
}

/**
 * Builds one target with steps of its own; its stamp goes first (a build killed or failed midway
 * leaves none) and is written once every step succeeded. Resolves with the first failed exit status, else 0.
 */
async function buildUnit(target, fast) {
  const started = new Date();
  const hash = inputHash(target);
  const stamp = stampOf(target, ROOT);
  rmSync(stamp, { force: true });
  const steps = TARGETS[target].steps.map(([command, args]) =>
    fast && target === 'server' && args[0] === TSC ? transpileServer() : run(command, args),
  );
  const failed = (await Promise.all(steps)).find((status) => status !== 0);
  if (failed !== undefined) return failed;
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${started.toISOString()}\n${hash}\n`);
  utimesSync(stamp, started, started);
  return 0;
}

/** Builds `target` and its parts side by side; with `ifStale`, only the stale ones. */
async function build(target, ifStale) {
  const todo = units(target).filter((unit) => !ifStale || unitStale(unit, ROOT));
  const failed = (await Promise.all(todo.map((unit) => buildUnit(unit, ifStale)))).find((status) => status !== 0);
  if (failed !== undefined) process.exit(failed);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const target = args.find((a) => !a.startsWith('--')) ?? 'app';
  if (!(target in TARGETS)) {
    console.error(`build: unknown target '${target}' (app, server, web or bench)`);
    process.exit(2);
  }
  const ifStale = args.includes('--if-stale');
  await build(target, ifStale);
}
