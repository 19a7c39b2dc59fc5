/**
 * Bundles the dashboard (src/dashboard) with esbuild into a directory the server serves:
 * `index.html`, content-hashed `main-<hash>.js` / `main-<hash>.css`, `favicon.svg`, and the
 * persisted-operations manifest of its GraphQL documents (the bundle sends only their ids; the
 * server loads the manifest from the same directory and does not serve it).
 * Usage: `npm run build:dashboard` (writes dist/web). Needs `npm run codegen` first (src/dashboard/gql).
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { DASHBOARD_OPERATIONS_FILE } from '../src/http/paths.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src/dashboard');

/** Where `npm run build:dashboard` writes the bundle, and where the server looks for it by default. */
export const DEFAULT_DASHBOARD_DIR = join(root, 'dist/web');

/** Builds the dashboard into `outDir` (emptied first); returns the names of the files written. */
export async function buildDashboard(outDir: string = DEFAULT_DASHBOARD_DIR): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(source, 'main.ts')],
    outdir: outDir,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`dashboard build produced ${outputs.join(', ')}: expected a .js and a .css file`);
  const template = await readFile(join(source, 'index.html'), 'utf8');
  await writeFile(join(outDir, 'index.html'), template.replace('{{js}}', js).replace('{{css}}', css));
  await copyFile(join(source, 'favicon.svg'), join(outDir, 'favicon.svg'));
  await copyFile(join(source, 'gql', DASHBOARD_OPERATIONS_FILE), join(outDir, DASHBOARD_OPERATIONS_FILE));
  return [...outputs, 'index.html', 'favicon.svg', DASHBOARD_OPERATIONS_FILE];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_DASHBOARD_DIR;
  buildDashboard(dir).then(
    (files) => console.error(`dashboard built into ${dir}: ${files.join(', ')}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
