import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../support/gc.js';
import { requestLife, untilAborted, withDeadline } from '../../src/deadline.js';
import { AppError } from '../../src/errors.js';

const statementTimeout = () =>
  Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
const cancelledByUser = () => Object.assign(new Error('canceling statement due to user request'), { code: '57014' });
const rejectAfter = <T>(ms: number, value: () => T) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(value()), ms));

describe('a request time limit names the limit, whichever side notices it first', () => {
  it('rejects with the limit in seconds when the timer passes first', async () => {
    const err = await withDeadline(5, undefined, () => new Promise(() => undefined), 1_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('TIMEOUT');
    expect((err as AppError).message).toMatch(/the 1 s time limit/);
  });

  it('rejects with the same error when the database reports its statement timeout just before the timer', async () => {
    const err = await withDeadline(300, undefined, () => rejectAfter(280, statementTimeout), 2_000).catch(
      (e: unknown) => e,
    );
    expect((err as AppError).code).toBe('TIMEOUT');
    expect((err as AppError).message).toMatch(/the 2 s time limit/);
  });

  it('rejects with the same error when a pooled connection or a key lookup timed out at the deadline', async () => {
    const pool = await withDeadline(
      300,
      undefined,
      () => rejectAfter(280, () => new Error('timeout exceeded when trying to connect')),
      30_000,
    ).catch((e: unknown) => e);
    expect((pool as AppError).message).toMatch(/the 30 s time limit/);
    const lookup = await withDeadline(
      300,
      undefined,
      () => rejectAfter(280, () => new AppError('TIMEOUT', 'x')),
      2_000,
    ).catch((e: unknown) => e);
    expect((lookup as AppError).message).toMatch(/the 2 s time limit/);
  });

  it('passes a statement cancelled long before the deadline through as it is (its client left)', async () => {
    const cancelled = cancelledByUser();
    await expect(withDeadline(60_000, undefined, () => Promise.reject(cancelled))).rejects.toBe(cancelled);
  });

  it('passes other errors through unchanged', async () => {
    const other = new AppError('BAD_USER_INPUT', 'bad zone');
    await expect(withDeadline(60_000, undefined, () => Promise.reject(other))).rejects.toBe(other);
  });
});

describe('a streamed response keeps no batch it has written', () => {
  /** Runs 200 steps that each give a fresh 64 KiB batch, then counts how many batches are still reachable. */
  async function batchesKeptAfter(step: (work: () => Promise<Uint8Array>) => Promise<Uint8Array>): Promise<number> {
    const written: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < 200; i++) {
      const batch = await step(async () => new Uint8Array(64 * 1024));
      written.push(new WeakRef(batch));
    }
    await new Promise((done) => setImmediate(done));
    collectGarbage();
    return written.filter((ref) => ref.deref() !== undefined).length;
  }

  it('releases each batch of a request life once its step has ended, while the life goes on', async () => {
    const life = requestLife(60_000, new AbortController().signal);
    try {
      expect(await batchesKeptAfter((work) => life.run(work))).toBeLessThan(5);
    } finally {
      life.end();
    }
  });

  it('leaves no abort listener on a long-lived signal after each step', async () => {
    const signal = new AbortController().signal;
    expect(await batchesKeptAfter((work) => untilAborted(signal, work()))).toBeLessThan(5);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason of a signal that aborts first, and with the work’s own error', async () => {
    const controller = new AbortController();
    const pending = untilAborted(controller.signal, new Promise(() => undefined));
    controller.abort(new Error('client closed'));
    await expect(pending).rejects.toThrow('client closed');
    await expect(untilAborted(new AbortController().signal, Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(untilAborted(controller.signal, Promise.resolve(1))).rejects.toThrow('client closed');
  });
});
