import { describe, expect, it } from 'vitest';
import { currentRequestSignal, withDeadline } from '../../src/deadline.js';
import { createReadMemo, NO_MEMO, statementKey } from '../../src/repositories/sql/read-memo.js';

const counting = <T>(value: T) => {
  const load = () => {
    load.calls++;
    return Promise.resolve(value);
  };
  load.calls = 0;
  return load;
};

describe('the read memo keeps a read result until it is cleared', () => {
  it('reads once for repeated and concurrent requests of one key', async () => {
    const memo = createReadMemo(10, 60_000);
    const load = counting(['demo']);
    const results = await Promise.all([memo.get('k', load), memo.get('k', load), memo.get('k', load)]);
    expect(await memo.get('k', load)).toEqual(['demo']);
    expect(results).toEqual([['demo'], ['demo'], ['demo']]);
    expect(load.calls).toBe(1);
  });

  it('reads again after clear (a data version bump)', async () => {
    const memo = createReadMemo(10, 60_000);
    await memo.get('k', () => Promise.resolve(['demo']));
    memo.clear();
    expect(await memo.get('k', () => Promise.resolve(['demo', 'entsoe']))).toEqual(['demo', 'entsoe']);
  });

  it('does not keep a failed read: the caller sees the error, the next caller reads again', async () => {
    const memo = createReadMemo(10, 60_000);
    await expect(memo.get('k', () => Promise.reject(new Error('statement timeout')))).rejects.toThrow(
      'statement timeout',
    );
    const load = counting(['entsoe']);
    expect(await memo.get('k', load)).toEqual(['entsoe']);
    expect(load.calls).toBe(1);
  });

  it('keeps at most its bound, dropping the least recently used key', async () => {
    const memo = createReadMemo(2, 60_000);
    const a = counting('a');
    await memo.get('a', a);
    await memo.get('b', () => Promise.resolve('b'));
    await memo.get('c', () => Promise.resolve('c'));
    await memo.get('a', a);
    expect(a.calls).toBe(2);
  });

  it('reads again once a result is older than its lifetime (writes that send no data event)', async () => {
    const memo = createReadMemo(10, 30);
    const load = counting(['demo']);
    await memo.get('k', load);
    await new Promise((r) => setTimeout(r, 60));
    await memo.get('k', load);
    expect(load.calls).toBe(2);
  });

  it('reads outside the request that started it: its timeout does not fail the requests sharing the read', async () => {
    const memo = createReadMemo(10, 60_000);
    const load = () =>
      new Promise<string>((resolve) =>
        setTimeout(() => resolve(currentRequestSignal() ? 'in a request' : 'detached'), 80),
      );
    const first = withDeadline(20, undefined, () => memo.get('k', load));
    const second = withDeadline(1_000, undefined, () => memo.get('k', load));
    await expect(first).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(await second).toBe('detached');
  });

  it('without a memo every call reads', async () => {
    const load = counting(1);
    await NO_MEMO.get('k', load);
    await NO_MEMO.get('k', load);
    expect(load.calls).toBe(2);
  });

  it('keys statements by text and values: another range or zone set is another key', () => {
    const text = 'SELECT … WHERE d.day >= $1::date AND d.zone_id = ANY($2)';
    const key = statementKey({ text, values: ['2026-11-01', [1, 2]] });
    expect(statementKey({ text, values: ['2026-11-01', [1, 2]] })).toBe(key);
    expect(statementKey({ text, values: ['2026-11-02', [1, 2]] })).not.toBe(key);
    expect(statementKey({ text, values: ['2026-11-01', [1]] })).not.toBe(key);
  });
});
