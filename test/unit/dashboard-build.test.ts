import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDashboardBeside } from '../../src/http/dashboard-build.js';

describe('the dashboard build beside a start (npm start)', () => {
  let root: string;
  const script = (body: string) => {
    mkdirSync(join(root, 'scripts'), { recursive: true });
    writeFileSync(join(root, 'scripts/build.mjs'), body);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'eumarket-dashboard-build-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs build.mjs for the stale dashboard only, and resolves once it is done', async () => {
    script(
      `import { writeFileSync } from 'node:fs'; writeFileSync('args.json', JSON.stringify(process.argv.slice(2)));`,
    );
    await buildDashboardBeside(root);
    expect(JSON.parse(readFileSync(join(root, 'args.json'), 'utf8'))).toEqual(['--if-stale', 'web']);
  });

  it('runs the build nicer than the server, which gets the cores first', async () => {
    script(
      `import { writeFileSync } from 'node:fs'; import { getPriority } from 'node:os';
       setTimeout(() => writeFileSync('nice.json', JSON.stringify(getPriority())), 300);`,
    );
    await buildDashboardBeside(root);
    expect(JSON.parse(readFileSync(join(root, 'nice.json'), 'utf8'))).toBe(Math.min(19, getPriority() + 10));
  });

  it('fails with the end of the build output when the build fails', async () => {
    script(`console.error('codegen: unknown field'); process.exit(3);`);
    await expect(buildDashboardBeside(root)).rejects.toThrow(/exit 3.*codegen: unknown field/s);
  });

  it('has nothing to build where the project has no build script (a deployed build)', async () => {
    await expect(buildDashboardBeside(root)).resolves.toBeUndefined();
  });
});
