import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { type App, type AppOptions, createApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { DEMO_TEST_NOW } from './db.js';
import { blockSetup, type dbTest, openDatabase } from './fixtures.js';

/** An in-process server over a test database, with helpers for both surfaces. */
export interface TestApp {
  readonly app: App;
  readonly db: Database;
  get(path: string, init?: RequestInit): Promise<Response>;
  graphql<R, V>(
    doc: TypedDocumentNode<R, V>,
    variables?: V,
  ): Promise<{ data?: R; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
}

/** What a test app is built with besides its database: configuration over `testConfig()` and the dashboard's folder. */
export interface TestAppSettings {
  readonly config?: Partial<Config>;
  readonly dashboardDir?: AppOptions['dashboardDir'];
}

/**
 * Builds the app over `db` (a fixture's database); the clock is pinned to DEMO_TEST_NOW. Close it
 * with `close` (the database stays the fixture's).
 */
export async function appOver(
  db: Database,
  settings: TestAppSettings = {},
): Promise<TestApp & { close(): Promise<void> }> {
  const app = await createApp({
    config: testConfig(settings.config ?? {}),
    db,
    now: () => DEMO_TEST_NOW.getTime(),
    ...(settings.dashboardDir === undefined ? {} : { dashboardDir: settings.dashboardDir }),
  });
  const fetch = (path: string, init?: RequestInit) =>
    Promise.resolve(app.yoga.fetch(new URL(path, 'http://test'), init ?? {}));
  return {
    app,
    db,
    get: fetch,
    async graphql(doc, variables) {
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: print(doc), variables }),
      });
      return res.json();
    },
    close: () => app.close(),
  };
}

/** What a block's app is built with: its settings, its own database or the file's, the time it may take to open. */
export interface BlockAppSettings extends TestAppSettings {
  /** A database of the block's own instead of the file's `fileDb`. */
  readonly own?: boolean;
  /** ms the database and app may take to open (default: the hook timeout). */
  readonly timeout?: number;
}

/**
 * The app of a `describe` block, over the engine and seed the block's `it.override({ backend, seed })`
 * sets: built before the block's first test, closed after its last. Its database is the file's
 * (`fileDb`, shared with the file's other blocks of the same engine and seed), or with `own: true`
 * one opened for the block alone and closed with it (for a block that writes what another reads).
 * The value is usable inside tests and hooks only.
 */
export function blockApp(it: Pick<typeof dbTest, 'beforeEach'>, settings: BlockAppSettings = {}): TestApp {
  let closeOwn: (() => Promise<void>) | undefined;
  const setup = blockSetup<TestApp & { close(): Promise<void> }>(async (t) => {
    await t?.close();
    await closeOwn?.();
  });
  if (settings.own) {
    it.beforeEach(
      ({ backend, seed }) =>
        setup.run(async () => {
          const opened = await openDatabase(backend, seed);
          closeOwn = opened.close;
          return appOver(opened.value, settings);
        }),
      settings.timeout,
    );
  } else {
    it.beforeEach(({ fileDb }) => setup.run(() => appOver(fileDb, settings)), settings.timeout);
  }
  return {
    get app() {
      return setup.value.app;
    },
    get db() {
      return setup.value.db;
    },
    get: (path, init) => setup.value.get(path, init),
    graphql: (doc, variables) => setup.value.graphql(doc, variables),
  };
}

/** A read sent to an app in process: a REST path (GET) or a GraphQL document (POST). */
export type AppRead = string | { query: string };

/** Sends `read` to `target` in process; its status and body text. */
export async function fetchOn(target: App, read: AppRead): Promise<{ status: number; body: string }> {
  const res = await target.yoga.fetch(
    new URL(typeof read === 'string' ? read : '/graphql', 'http://test'),
    typeof read === 'string'
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(read) },
  );
  return { status: res.status, body: await res.text() };
}
