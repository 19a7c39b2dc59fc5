import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'graphql-yoga';
import { PROJECT_ROOT } from '../project-root.js';
import {
  DASHBOARD_ASSET_PREFIX,
  DASHBOARD_OPERATIONS_FILE,
  DOCS_PATH,
  FAVICON_PATH,
  GRAPHQL_PATH,
  OPENAPI_PATH,
} from './paths.js';

/** The icon's source, served at {@link FAVICON_PATH} when the bundle has none. */
const FAVICON_SOURCE = join(PROJECT_ROOT, 'src/dashboard/favicon.svg');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

/** Asset names: one path segment of letters, digits, `_`, `-` and dots, not starting with a dot. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

const MISSING = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8" /><title>Dashboard not built</title></head>
<body>
<h1>Dashboard not built</h1>
<p>The dashboard bundle is missing. Build it with <code>npm run build:dashboard</code> and reload this page.</p>
<p>The API works without it: <a href="${GRAPHQL_PATH}">GraphiQL</a>, <a href="${DOCS_PATH}">API reference</a>, <a href="${OPENAPI_PATH}">OpenAPI document</a>.</p>
</body>
</html>
`;

/** The project root: the nearest directory above this module holding a package.json (works from src/ and from a compiled dist/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

/** Where `npm run build:dashboard` writes the bundle: `dist/web` under the project root. */
export const defaultDashboardDir = (): string => join(projectRoot(), 'dist/web');

/** The built dashboard's persisted-operations manifest in `dir`, or null without a build. */
export function dashboardOperationsFile(dir: string = defaultDashboardDir()): string | null {
  const path = join(dir, DASHBOARD_OPERATIONS_FILE);
  return existsSync(path) ? path : null;
}

/** Content-hashed names (esbuild's `[name]-[hash]`) never change: cache them for a year; others for an hour. */
const cacheControl = (name: string): string =>
  /-[A-Z0-9]{8}\.(js|css)$/.test(name) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';

const html = (body: string, status: number): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * Serves the dashboard built by `npm run build:dashboard`: `/` (and `/index.html`) answer its page
 * (revalidated on every load), `/dashboard/<file>` its assets (content-hashed ones cached for a year),
 * `/favicon.ico` the dashboard's SVG icon (for pages linking none; the source's when the bundle is missing).
 * Without a build, `/` answers 503 with a page saying how to build it; unknown assets answer 404
 * through the later not-found plugin. Only GET and HEAD are served.
 */
export function dashboardPlugin(dir: string = defaultDashboardDir()): Plugin {
  const assets = new Map<string, Buffer>();
  const serve = (name: string, fallback: string | null, endResponse: (r: Response) => void): Promise<void> => {
    const cached = assets.get(name);
    const found = cached
      ? Promise.resolve(cached)
      : readOrNull(join(dir, name)).then((c) => c ?? (fallback ? readOrNull(fallback) : null));
    return found.then((content) => {
      if (!content) return;
      assets.set(name, content);
      const headers = {
        'content-type': TYPES[extname(name)] ?? 'application/octet-stream',
        'cache-control': cacheControl(name),
      };
      endResponse(new Response(new Uint8Array(content), { headers }));
    });
  };
  return {
    onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      if (url.pathname === '/' || url.pathname === '/index.html') {
        return readOrNull(join(dir, 'index.html')).then((page) =>
          endResponse(page ? html(page.toString('utf8'), 200) : html(MISSING, 503)),
        );
      }
      if (url.pathname === FAVICON_PATH) return serve('favicon.svg', FAVICON_SOURCE, endResponse);
      if (!url.pathname.startsWith(DASHBOARD_ASSET_PREFIX)) return;
      const name = url.pathname.slice(DASHBOARD_ASSET_PREFIX.length);
      const type = TYPES[extname(name)];
      if (!ASSET_NAME.test(name) || !type || name === 'index.html') return;
      return serve(name, null, endResponse);
    },
  };
}
