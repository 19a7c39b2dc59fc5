import { describe, expect, it } from 'vitest';
import { databaseAppError } from '../../src/db/errors.js';

describe('database errors as client errors', () => {
  it('reports a wait for a pooled connection past its limit as TIMEOUT, never as an unavailable database', () => {
    expect(databaseAppError(new Error('timeout exceeded when trying to connect'))?.code).toBe('TIMEOUT');
  });

  it('reports a connection that could not be opened in time as DATABASE_UNAVAILABLE', () => {
    expect(databaseAppError(new Error('timeout expired'))?.code).toBe('DATABASE_UNAVAILABLE');
    expect(databaseAppError(new Error('Connection terminated due to connection timeout'))?.code).toBe(
      'DATABASE_UNAVAILABLE',
    );
  });

  it('leaves other errors unmapped', () => {
    expect(databaseAppError(new Error('relation "price_point" does not exist'))).toBeNull();
  });
});
