import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { assertForward } from '../../src/graphql/connection.js';

const paramOf = (args: Parameters<typeof assertForward>[0]): string | undefined => {
  try {
    assertForward(args);
    return undefined;
  } catch (err) {
    return err instanceof InputError ? err.issues[0]?.param : 'not an InputError';
  }
};

describe('forward-only connections', () => {
  it('refuse backward paging naming the argument that asked for it', () => {
    expect(paramOf({ first: 10 })).toBeUndefined();
    expect(paramOf({ last: 5 })).toBe('last');
    expect(paramOf({ before: 'abc' })).toBe('before');
    expect(paramOf({ last: 5, before: 'abc' })).toBe('last');
  });
});
