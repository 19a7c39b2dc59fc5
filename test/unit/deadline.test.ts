import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/deadline.js';
import { AppError } from '../../src/errors.js';

const statementTimeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });

describe('a request time limit names the limit, whichever side notices it first', () => {
  it('rejects with the limit in seconds when the timer passes first', async () => {
    const err = await withDeadline(5, undefined, () => new Promise(() => undefined), 1_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('TIMEOUT');
    expect((err as AppError).message).toMatch(/the 1 s time limit/);
  });

  it('rejects with the same error when the database reports its statement timeout first', async () => {
    const err = await withDeadline(60_000, undefined, () => Promise.reject(statementTimeout), 2_000).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('TIMEOUT');
    expect((err as AppError).message).toMatch(/the 2 s time limit/);
  });

  it('rejects with the same error when a pooled connection was not free in time', async () => {
    const err = await withDeadline(60_000, undefined, () => Promise.reject(new Error('timeout exceeded when trying to connect')), 30_000).catch((e: unknown) => e);
    expect((err as AppError).message).toMatch(/the 30 s time limit/);
  });

  it('passes other errors through unchanged', async () => {
    const other = new AppError('BAD_USER_INPUT', 'bad zone');
    await expect(withDeadline(60_000, undefined, () => Promise.reject(other))).rejects.toBe(other);
  });
});
