/**
 * Child process of the lock race test: tries to own the directory argv[2] once, prints `won` and
 * holds it for argv[3] ms, or prints the refusal.
 */
import { acquireDirLock } from '../../src/db/dir-lock.js';

const [dir, holdMs] = process.argv.slice(2);
try {
  const lock = acquireDirLock(dir as string);
  process.stdout.write('won\n');
  setTimeout(() => lock.release(), Number(holdMs));
} catch (error) {
  process.stdout.write(`refused: ${error instanceof Error ? error.message : String(error)}\n`);
}
