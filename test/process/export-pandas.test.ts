import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';

/** Debian's Python (python3-pandas lives there), else the python3 on PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Whether pandas is importable. */
function hasPandas(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import pandas'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The README's pandas line: the first line holding `pd.read_csv(` with an export URL. */
const README_LINE = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  .split('\n')
  .find((l) => l.includes('pd.read_csv(') && l.includes('/api/v1/export/'));

const run = hasPandas() || process.env.CI === 'true';

describe.skipIf(!run)("the README's pandas line on a running server", () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, { timeout: 180_000 });
  let server: Server | undefined;
  let origin: string;
  const served = blockSetup(async () => {
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
  });
  it.beforeEach(() =>
    served.run(async () => {
      const listening = createServer(t.app.yoga);
      server = listening;
      await new Promise<void>((done) => listening.listen(0, '127.0.0.1', done));
      origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    }),
  );

  it('reads the CSV export into a frame of the export’s shape and values', async () => {
    expect(README_LINE).toBeDefined();
    const line = README_LINE!.replaceAll('http://127.0.0.1:4000', origin);
    const url = /"(http[^"]+)"/.exec(line)![1]!;
    const script = `${line}\nprint(df.shape[0], df.shape[1], repr(float(df["price_mwh"].iloc[100])), df["datetime"].iloc[100].isoformat(), str(df["datetime"].dtype).replace(" ", ""))`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(PYTHON, ['-c', script], { timeout: 120_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const rows = parse(await (await fetch(url)).text(), { columns: true }) as Record<string, string>[];
    const [n, columns, price, datetime, dtype] = out.trim().split(' ');
    expect(Number(n)).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(1_000);
    expect(Number(columns)).toBe(6);
    expect(Number(price)).toBe(Number(rows[100]!.price_mwh));
    expect(Date.parse(datetime!)).toBe(Date.parse(rows[100]!.datetime!));
    expect(dtype).toMatch(/^datetime64\[ns(,UTC)?\]$/);
  });
});
