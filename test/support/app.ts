import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { type App, type AppOptions, createApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { createTestDatabase, DEMO_TEST_NOW } from './db.js';

/** An in-process server over a test database, with helpers for both surfaces. */
export interface TestApp {
  readonly app: App;
  readonly db: Database;
  get(path: string, init?: RequestInit): Promise<Response>;
  graphql<R, V>(
    doc: TypedDocumentNode<R, V>,
    variables?: V,
  ): Promise<{ data?: R; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
  close(): Promise<void>;
}

/** Builds the app over a fresh test database; the clock is pinned to DEMO_TEST_NOW. */
export async function createTestApp(
  kind: 'pglite' | 'postgres',
  seed: 'demo' | 'empty',
  config: Partial<Config> = {},
  options: Pick<AppOptions, 'dashboardDir'> = {},
): Promise<TestApp> {
  const { db, close } = await createTestDatabase(kind, { seed });
  const app = await createApp({ config: testConfig(config), db, now: () => DEMO_TEST_NOW.getTime(), ...options });
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
    async close() {
      await app.close();
      await close();
    },
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
