import './compile-cache.js';
import { createServer, type Server } from 'node:http';
import type { App } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { Database } from './db/client.js';
import { answerClientErrors } from './http/client-errors.js';
import { DASHBOARD_PATH, DOCS_PATH, GRAPHQL_PATH, OPENAPI_PATH, READY_PATH, REST_PREFIX } from './http/paths.js';
import { startupGate } from './http/starting.js';
import { BUILD_DASHBOARD_FLAG, buildDashboardBeside } from './http/dashboard-build.js';
import { createLogger } from './logger.js';
import { isFreshEmbeddedDirectory } from './db/fresh-dir.js';
import { installLastResort } from './last-resort.js';
import { warnIfUnsupportedNode } from './node-version.js';

/**
 * How long responses still in flight when the server closes (after the drain) may take to finish,
 * ms; then their connections are cut (a client that stopped reading) and the process exits 0.
 */
const CLOSE_GRACE_MS = 5_000;

/** Listens on HOST:PORT and resolves with the base URL to print. */
function listen(server: Server, config: Config): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      resolve(`http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`);
    });
  });
}

function urlBlock(base: string, db: Database, url: string | undefined, seed: boolean): string {
  return (
    `\nEuropean electricity market API is starting (${db.kind === 'pglite' ? 'embedded database' : 'PostgreSQL'}):\n` +
    `  Dashboard:           ${base}${DASHBOARD_PATH}\n  GraphQL (GraphiQL):  ${base}${GRAPHQL_PATH}\n  REST API:            ${base}${REST_PREFIX}/prices\n` +
    `  API reference:       ${base}${DOCS_PATH}\n  OpenAPI:             ${base}${OPENAPI_PATH}\n` +
    (url ? `  Database (psql):     psql '${url}'\n` : '') +
    `\nPreparing the database${seed ? ' (the demo data loads on the first start only)' : ''}; until it is ready the API answers 503\n` +
    `and ${base}${READY_PATH} tells the progress.\n`
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  warnIfUnsupportedNode();
  const now = new Date();
  const config = loadConfig();
  const dashboard = process.argv.includes(BUILD_DASHBOARD_FLAG) ? buildDashboardBeside() : undefined;
  dashboard?.catch(() => undefined);
  const demoCertain = config.SEED_DEMO && isFreshEmbeddedDirectory(config);
  const logger = createLogger(config);
  const gate = startupGate('opening the database');
  let closing = false;
  const server = createServer((req, res) => {
    if (closing) res.setHeader('connection', 'close');
    return gate.handler(req, res);
  });
  answerClientErrors(server);
  let db: Database | undefined;
  let app: App | undefined;
  let stopping = false;
  const close = (running: App, exitCode: number) => {
    closing = true;
    server.close(
      () =>
        void running
          .close()
          .then(() => db?.close())
          .then(() => process.exit(exitCode)),
    );
    void running.endStreams();
    server.closeIdleConnections();
    // A keep-alive connection whose response was in flight at close becomes idle when it ends.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    // A client that stopped reading keeps its response in flight for ever: cut it once the grace is over.
    setTimeout(() => {
      server.getConnections((_err, count) => {
        if (count) logger.warn({ connections: count }, 'closing connections still busy after the shutdown grace');
        server.closeAllConnections();
      });
    }, CLOSE_GRACE_MS).unref();
    setTimeout(() => process.exit(1), CLOSE_GRACE_MS + 5_000).unref();
  };
  let drain: NodeJS.Timeout | undefined;
  const stop = (signal: string, exitCode = 0) => {
    if (stopping) {
      // A second signal during the drain closes at once.
      if (drain && !closing) {
        clearTimeout(drain);
        close(app as App, exitCode);
      }
      return;
    }
    stopping = true;
    const drainMs = signal === 'SIGTERM' && app ? config.SHUTDOWN_DRAIN_SECONDS * 1000 : 0;
    logger.info({ signal, ready: Boolean(app), drainSeconds: drainMs / 1000 }, 'shutting down');
    if (!app) {
      // An unfinished start has nothing to drain: its demo load's transaction never commits, and the data directory's lock goes on exit.
      server.close();
      server.closeAllConnections();
      process.exit(exitCode);
    }
    const running = app;
    running.startDraining();
    if (drainMs) drain = setTimeout(() => close(running, exitCode), drainMs);
    else close(running, exitCode);
  };
  installLastResort(process, { logger, ready: () => Boolean(app), stop: (reason) => stop(reason, 1) });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const base = await listen(server, config);
  logger.info({ url: base }, 'listening');
  // The engine's thread starts while this one loads the API's modules.
  const opening = import('./db/server-database.js').then(({ openServerDatabase }) => openServerDatabase(config));
  opening.catch(() => undefined);
  const [{ prepareDatabase, generateStartDemo }, { createApp }] = await Promise.all([
    import('./bootstrap.js'),
    import('./app.js'),
  ]);
  const generated = demoCertain ? await generateStartDemo(config, now) : undefined;
  const opened = await opening;
  db = opened.db;
  logger.info(
    {
      database: db.kind === 'pglite' ? `embedded PGlite at ${config.PGLITE_DIR}` : 'PostgreSQL',
      ...(opened.url ? { url: opened.url } : {}),
    },
    'database opened',
  );
  process.stdout.write(urlBlock(base, db, opened.url, config.SEED_DEMO));
  await prepareDatabase(db, config, logger, now, (detail) => gate.setDetail(detail), generated);
  opened.publish();
  if (dashboard) {
    gate.setDetail('building the dashboard');
    const waiting = Date.now();
    await dashboard;
    logger.info({ waitedSeconds: (Date.now() - waiting) / 1000 }, 'dashboard built');
  }
  gate.setDetail('building the API');
  app = await createApp({ config, db, logger });
  gate.open(app.yoga);
  if (config.SEED_DEMO && (config.DEMO_LIVE ?? db.kind === 'pglite')) {
    const { startDemoLiveIfLoaded } = await import('./demo/live.js');
    const live = await startDemoLiveIfLoaded(db, config, (msg) => logger.info(msg));
    if (live) process.once('exit', () => live.stop());
  }
  const seconds = (Date.now() - started) / 1000;
  logger.info({ seconds }, 'ready');
  process.stdout.write(`Ready: the European electricity market API is up (${seconds.toFixed(1)} s after start).\n\n`);
}

main().catch((err: unknown) => {
  const message =
    err instanceof ConfigError ? err.message : `Start-up failed: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
