import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FAVICON_PATH } from '../http/paths.js';
import type { StaticRoutes } from './router.js';

const require = createRequire(import.meta.url);
const swaggerDir = (): string => (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const page = (prefix: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>API reference: European electricity market analytics API v1</title>
  <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml" />
  <link rel="stylesheet" href="${prefix}/docs/swagger-ui.css" />
</head>
<body>
  <div id="reference"></div>
  <script src="${prefix}/docs/swagger-ui-bundle.js"></script>
  <script>window.ui = SwaggerUIBundle({ url: '${prefix}/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: true });</script>
</body>
</html>`;

/**
 * Routes for the OpenAPI document and its reference page (Swagger UI served from the installed
 * package, never from a CDN). The page names its assets by absolute path under `prefix`, so it
 * loads them whether it is requested as `docs` or `docs/`.
 */
export function docsRoutes(prefix: string, openapi: object): StaticRoutes {
  const body = JSON.stringify(openapi);
  const routes = new Map<string, () => Response | Promise<Response>>([
    [
      `${prefix}/openapi.json`,
      () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    ],
    [`${prefix}/docs`, () => new Response(page(prefix), { headers: { 'content-type': 'text/html; charset=utf-8' } })],
  ]);
  for (const [file, type] of Object.entries(ASSETS)) {
    routes.set(`${prefix}/docs/${file}`, async () => {
      const content = await readFile(join(swaggerDir(), file));
      return new Response(content, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
    });
  }
  return routes;
}
