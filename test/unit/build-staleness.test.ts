import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputHash, isStale } from '../../scripts/build.mjs';

const WEB_OUTPUTS = ['dist/web/index.html', 'dist/web/favicon.svg', 'dist/web/persisted-documents.json'];

describe('the build skip of the npm scripts (scripts/build.mjs)', () => {
  let root: string;
  const now = Date.now();
  const write = (file: string, at: number) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), at / 1000, at / 1000);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'eumarket-build-'));
    for (const input of ['src/main.ts', 'src/dashboard/main.ts', 'package.json', 'schema.graphql'])
      write(input, now - 100_000);
    for (const output of ['dist/src/main.js', ...WEB_OUTPUTS]) write(output, now + 10_000);
    for (const target of ['server', 'web']) write(`dist/.${target}.stamp`, now + 10_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('skips when the last build started after every input changed', () => {
    expect(isStale('app', root)).toBe(false);
  });

  it('builds when a source, a config file or the schema is newer than the last build', () => {
    for (const input of ['src/deep/new.ts', 'package.json', 'schema.graphql']) {
      write(input, now + 20_000);
      expect(isStale('app', root), input).toBe(true);
      write(input, now - 100_000);
    }
  });

  it('ignores the dashboard types codegen writes during the build itself', () => {
    write('src/dashboard/gql/graphql.ts', now + 20_000);
    expect(isStale('app', root)).toBe(false);
  });

  it('skips when codegen or prisma generate created their folders after the build (a folder mtime is no input)', () => {
    write('src/dashboard/gql/graphql.ts', now + 20_000);
    write('src/generated/prisma/client.ts', now + 20_000);
    utimesSync(join(root, 'src/dashboard'), (now + 20_000) / 1000, (now + 20_000) / 1000);
    utimesSync(join(root, 'src'), (now + 20_000) / 1000, (now + 20_000) / 1000);
    expect(isStale('app', root)).toBe(false);
  });

  it('skips a touched input whose content is the one the last build hashed, builds a changed one', () => {
    for (const target of ['server', 'web'] as const) {
      writeFileSync(
        join(root, `dist/.${target}.stamp`),
        `${new Date(now).toISOString()}\n${inputHash(target, root)}\n`,
      );
      utimesSync(join(root, `dist/.${target}.stamp`), (now + 10_000) / 1000, (now + 10_000) / 1000);
    }
    write('src/main.ts', now + 20_000);
    expect(isStale('app', root)).toBe(false);
    writeFileSync(join(root, 'src/main.ts'), 'export {};\n');
    utimesSync(join(root, 'src/main.ts'), (now + 20_000) / 1000, (now + 20_000) / 1000);
    expect(isStale('server', root)).toBe(true);
    expect(isStale('app', root)).toBe(true);
    expect(readFileSync(join(root, 'dist/.server.stamp'), 'utf8').split('\n')[1]).not.toBe(inputHash('server', root));
  });

  it('builds when there is no stamp or an output is missing', () => {
    rmSync(join(root, 'dist/web/index.html'));
    expect(isStale('app', root)).toBe(true);
    expect(isStale('bench', root)).toBe(true);
  });

  it('builds the dashboard apart from the server: a missing bundle or web stamp leaves the server fresh', () => {
    for (const output of WEB_OUTPUTS) {
      rmSync(join(root, output));
      expect(isStale('web', root), output).toBe(true);
      expect(isStale('server', root), output).toBe(false);
      write(output, now + 10_000);
    }
    rmSync(join(root, 'dist/.web.stamp'));
    expect(isStale('web', root)).toBe(true);
    expect(isStale('app', root)).toBe(true);
    expect(isStale('server', root)).toBe(false);
  });

  it('counts the schema and the dashboard codegen as inputs of the dashboard, not of the server', () => {
    write('schema.graphql', now + 20_000);
    expect(isStale('web', root)).toBe(true);
    expect(isStale('server', root)).toBe(false);
  });
});
