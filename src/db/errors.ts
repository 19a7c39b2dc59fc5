import { AppError } from '../errors.js';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'P1001',
  'P1002',
  'P1017',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_TEXT =
  /PGlite is closed|Connection terminated|connect ECONNREFUSED|\btimeout expired\b|Can't reach database server/i;
/** A statement past its time limit, or a wait for a pooled connection past it (the pool busy, the server fine). */
const TIMEOUT_TEXT =
  /canceling statement due to statement timeout|Code: `57014`|timeout exceeded when trying to connect/;

function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, meta } = e as { code?: unknown; meta?: { code?: unknown } };
    if (typeof code === 'string') codes.push(code);
    if (meta && typeof meta.code === 'string') codes.push(meta.code);
  }
  const text = err instanceof Error ? err.message : String(err);
  for (const m of text.matchAll(/Code: `(\w+)`/g)) codes.push(m[1]!);
  return codes;
}

/**
 * Maps a database driver error to a client-facing coded error: DATABASE_UNAVAILABLE (503) when the
 * database cannot be reached (refused, dropped, or a connection not opened in time), TIMEOUT (504)
 * when a statement or the wait for a pooled connection hit the time limit; null otherwise. A busy
 * pool is never reported as an unavailable database.
 */
export function databaseAppError(err: unknown): AppError | null {
  const codes = codesOf(err);
  const text = err instanceof Error ? err.message : String(err);
  if (codes.includes('57014') || TIMEOUT_TEXT.test(text))
    return new AppError('TIMEOUT', 'The request exceeded the time limit; narrow the range or page through it');
  if (codes.some((c) => UNAVAILABLE_CODES.has(c)) || UNAVAILABLE_TEXT.test(text)) {
    return new AppError('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly');
  }
  return null;
}
