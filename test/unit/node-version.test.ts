import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE, unsupportedNodeWarning } from '../../src/node-version.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE_20 = '/usr/bin/node';

describe('the warning on an unsupported Node.js version', () => {
  it('names the same versions as package.json engines', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
  });

  it.each(['22.12.0', '22.23.3', '24.0.0', '24.11.1'])('is silent on %s', (version) => {
    expect(unsupportedNodeWarning(version)).toBeNull();
  });

  it.each(['20.19.5', '22.11.0', '23.6.0', '25.0.0', '18.20.0'])(
    'is one line naming %s and the supported versions',
    (version) => {
      const warning = unsupportedNodeWarning(version);
      expect(warning).toContain(`Node.js ${version} is not supported`);
      expect(warning).toContain(SUPPORTED_NODE);
      expect(warning!.trimEnd().split('\n')).toHaveLength(1);
    },
  );

  it.runIf(existsSync(NODE_20) && existsSync(join(ROOT, 'dist/src/cli/keys.js')))(
    'is printed once by a CLI started on the machine Node 20',
    async () => {
      const { stdout: version } = await promisify(execFile)(NODE_20, ['--version']);
      if (!version.startsWith('v20.')) return;
      const { stdout, stderr } = await promisify(execFile)(NODE_20, ['dist/src/cli/keys.js', '--help'], { cwd: ROOT });
      expect(stdout).toMatch(/^usage: npm run keys/);
      expect(stderr.match(/is not supported/g)).toHaveLength(1);
    },
  );
});
