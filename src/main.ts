import { createServer } from 'node:http';
import { createApp } from './app.js';
import { prepareDatabase } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { DASHBOARD_PATH, DOCS_PATH, GRAPHQL_PATH, OPENAPI_PATH, REST_PREFIX } from './http/paths.js';
import { openServerDatabase } from './db/server-database.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config);
  const { db, url, publish } = await openServerDatabase(config);
  logger.info({ database: db.kind === 'pglite' ? `embedded PGlite at ${config.PGLITE_DIR}` : 'PostgreSQL', ...(url ? { url } : {}) }, 'database opened');
  await prepareDatabase(db, config, logger, new Date());
  publish();
  const app = await createApp({ config, db, logger });
  const server = createServer(app.yoga);
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const base = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
    logger.info({ seconds: (Date.now() - started) / 1000 }, 'ready');
    process.stdout.write(
      `\nEuropean electricity market API is up (${db.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}):\n` +
        `  Dashboard:           ${base}${DASHBOARD_PATH}\n  GraphQL (GraphiQL):  ${base}${GRAPHQL_PATH}\n  REST API:            ${base}${REST_PREFIX}/prices\n` +
        `  API reference:       ${base}${DOCS_PATH}\n  OpenAPI:             ${base}${OPENAPI_PATH}\n` +
        (url ? `  Database (psql):     psql '${url}'\n` : '') + '\n',
    );
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => void app.close().then(() => db.close()).then(() => process.exit(0)));
    void app.endStreams().then(() => setTimeout(() => server.closeIdleConnections(), 100).unref());
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `Start-up failed: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
