import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder at or above `start` holding a package.json. @throws Error when there is none */
export function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${start}`);
  }
}

/**
 * Absolute path of the project's root folder (package.json, prisma/), whether this module runs
 * from the sources (src/) or from the build (dist/src/), whatever the working directory.
 */
export const PROJECT_ROOT: string = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
