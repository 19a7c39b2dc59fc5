import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { inTransaction, read, run, type Sql } from '../../src/db/executor.js';

const REPOSITORIES = join(PROJECT_ROOT, 'src', 'repositories');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [{ path: relative(REPOSITORIES, full), text: readFileSync(full, 'utf8') }] : [];
  });
}

/** Calls of the executor (`run(target, 'name', statement)`, `read(...)`, `readWithSettings(...)`) with the name they pass, or null when it is not a literal. */
function executorCalls(text: string): { call: string; name: string | null }[] {
  return [...text.matchAll(/\b(?:run|read|readWithSettings)(?:<[^()]*>)?\(([^,()]*(?:\([^()]*\))?),\s*([^,]*),/g)].map(
    (m) => ({
      call: m[0],
      name: /^'([^']*)'$/.exec(m[2]!.trim())?.[1] ?? null,
    }),
  );
}

/** A database recording the text of every statement sent to it. */
function recordingDatabase(texts: string[]): Database {
  const record = async (sql: string) => {
    texts.push(sql);
    return [];
  };
  return { kind: 'postgres', rawQuery: record, preparedQuery: record } as unknown as Database;
}

describe('SQL statement names', () => {
  const files = sources(REPOSITORIES);

  it('finds the repositories and their executor calls', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => executorCalls(f.text)).length).toBeGreaterThan(60);
  });

  it('has no repository hand SQL to a driver or to Prisma past the executor', () => {
    const direct = files.filter((f) =>
      /\.(query|rawQuery|preparedQuery|probeQuery|execScript|exec)\(|\.prisma\b|\$queryRaw|\$executeRaw/.test(f.text),
    );
    expect(direct.map((f) => f.path)).toEqual([]);
  });

  it('names every statement a repository runs with a literal camelCase name, each name in one repository only', () => {
    const owners = new Map<string, Set<string>>();
    const unnamed: string[] = [];
    for (const f of files) {
      for (const { call, name } of executorCalls(f.text)) {
        if (name === null || !/^[a-z][A-Za-z0-9]*$/.test(name)) unnamed.push(`${f.path}: ${call}`);
        else owners.set(name, (owners.get(name) ?? new Set()).add(f.path));
      }
    }
    expect(unnamed).toEqual([]);
    expect([...owners].filter(([, paths]) => paths.size > 1).map(([name]) => name)).toEqual([]);
  });

  it('sends each statement with its /* name */ comment first, prepared or not, in a transaction or not', async () => {
    const texts: string[] = [];
    const db = recordingDatabase(texts);
    const tx: Sql = {
      kind: 'postgres',
      query: async (sql) => (texts.push(sql), []),
      exec: async () => {},
      copyIn: async () => {},
    };
    await run(db, 'findThings', Prisma.sql`SELECT ${1}::int AS n`);
    await read(db, 'readThings', Prisma.sql`SELECT ${2}::int AS n`);
    await inTransaction(tx, (sql) => run(sql, 'writeThings', Prisma.sql`UPDATE t SET n = ${3}`));
    expect(texts).toEqual([
      '/* findThings */ SELECT $1::int AS n',
      '/* readThings */ SELECT $1::int AS n',
      '/* writeThings */ UPDATE t SET n = $1',
    ]);
  });

  it('refuses a name that is not camelCase, so that no name can end its comment', async () => {
    const db = recordingDatabase([]);
    await expect(run(db, 'x */ DROP TABLE t; /*', Prisma.sql`SELECT 1`)).rejects.toThrow('camelCase');
    await expect(read(db, '', Prisma.sql`SELECT 1`)).rejects.toThrow('camelCase');
  });
});
