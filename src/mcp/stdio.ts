/**
 * `npm run --silent mcp`: the MCP server over stdio, for desktop assistants that start it
 * themselves, against the configured database (PostgreSQL with DATABASE_URL, else the embedded one
 * in PGLITE_DIR, readied like `npm start` readies it: migrations, catalogue, demo data on a first
 * start). It answers `initialize` and the lists at once and tool calls once the database is ready
 * (a first start's demo load takes a while; clients time out a silent start). stdout carries
 * JSON-RPC only; logs and progress go to stderr.
 */
import '../compile-cache.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { prepareDatabase } from '../bootstrap.js';
import { classificationThresholds, ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { restrictTimeZones } from '../domain/time-zone.js';
import { createLogger } from '../logger.js';
import { readCatalogue } from '../repositories/catalogue/catalogue.js';
import { readTimeZoneNames } from '../repositories/catalogue/time-zones.js';
import { createReadMemo } from '../repositories/sql/read-memo.js';
import { ENDPOINTS } from '../rest/endpoints/index.js';
import { createMcpServer } from './server.js';
import { toolsOf } from './tools.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config, { destination: process.stderr, isTty: false });
  const db = await openDatabase(config);
  const deps = (async () => {
    await prepareDatabase(db, config, logger, new Date());
    restrictTimeZones(await readTimeZoneNames(db));
    return { db, catalogue: await readCatalogue(db), now: Date.now, memo: createReadMemo() };
  })();
  deps.then(
    () => logger.info({ database: db.kind }, 'mcp server on stdio: database ready'),
    (err: unknown) => {
      process.stderr.write(`MCP server failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
  const server = createMcpServer({
    tools: toolsOf(ENDPOINTS),
    deps,
    thresholds: classificationThresholds(config),
    logger,
    timeoutMs: config.REQUEST_TIMEOUT_MS,
    exportBase: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`,
  });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void server
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  };
  server.onclose = close;
  process.stdin.on('end', close);
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await server.connect(new StdioServerTransport());
  logger.info({ tools: ENDPOINTS.length }, 'mcp server on stdio connected');
}

main().catch((err: unknown) => {
  const message =
    err instanceof ConfigError ? err.message : `MCP server failed: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
