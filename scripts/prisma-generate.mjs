// Runs `prisma generate` offline. Prisma 7 checks for its native schema engine before generating
// even though the Rust-free client never uses it; pointing PRISMA_SCHEMA_ENGINE_BINARY at any file
// skips the download. Only for generate: with it set, prisma migrate commands silently do nothing.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
process.exit(result.status ?? 1);
