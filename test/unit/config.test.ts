import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('ENTSOE_REQUESTS_PER_MINUTE', () => {
  it('defaults to 300 and accepts up to 399, under the platform limit of 400 per minute', () => {
    expect(loadConfig({}).ENTSOE_REQUESTS_PER_MINUTE).toBe(300);
    expect(loadConfig({ ENTSOE_REQUESTS_PER_MINUTE: '399' }).ENTSOE_REQUESTS_PER_MINUTE).toBe(399);
  });

  it('refuses 400, naming the variable and the limit', () => {
    expect(() => loadConfig({ ENTSOE_REQUESTS_PER_MINUTE: '400' })).toThrow(ConfigError);
    expect(() => loadConfig({ ENTSOE_REQUESTS_PER_MINUTE: '400' })).toThrow(
      /ENTSOE_REQUESTS_PER_MINUTE: at most 399: the platform bans a token above 400 requests per minute/,
    );
  });
});

describe('INGEST_FOLLOW', () => {
  it('is off by default and refuses to start following without ENTSOE_SECURITY_TOKEN', () => {
    expect(loadConfig({}).INGEST_FOLLOW).toBe(false);
    expect(() => loadConfig({ INGEST_FOLLOW: 'true' })).toThrow(/INGEST_FOLLOW: needs ENTSOE_SECURITY_TOKEN/);
    expect(loadConfig({ INGEST_FOLLOW: 'true', ENTSOE_SECURITY_TOKEN: 't' }).INGEST_FOLLOW).toBe(true);
  });
});

describe('DATABASE_DIRECT_URL and DATABASE_READ_URL', () => {
  const primary = 'postgresql://app@db:5432/emk';

  it('reads DATABASE_READ_URL as one URL or a comma-separated list', () => {
    expect(
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgresql://app@r1/emk' }).DATABASE_READ_URL,
    ).toEqual(['postgresql://app@r1/emk']);
    expect(
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgresql://app@r1/emk, postgres://app@r2/emk' })
        .DATABASE_READ_URL,
    ).toEqual(['postgresql://app@r1/emk', 'postgres://app@r2/emk']);
  });

  it('refuses a list entry that is not a PostgreSQL URL, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgresql://app@r1/emk,http://r2' })).toThrow(
      /DATABASE_READ_URL/,
    );
  });

  it('needs DATABASE_URL beside either', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: primary })).toThrow(/DATABASE_DIRECT_URL: needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_READ_URL: primary })).toThrow(/DATABASE_READ_URL: needs DATABASE_URL/);
  });
});
