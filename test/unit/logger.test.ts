import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger, logFormat } from '../../src/logger.js';

const capture = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
};

describe('the log format', () => {
  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('writes readable lines with pino-pretty, and one JSON object a line otherwise', async () => {
    const pretty = capture();
    createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }, { isTty: false, destination: pretty.stream }).info(
      { url: 'http://x' },
      'listening',
    );
    const json = capture();
    createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, { destination: json.stream }).info(
      { url: 'http://x' },
      'listening',
    );
    await new Promise((done) => setImmediate(done));
    expect(pretty.text()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: listening\n {4}url: "http:\/\/x"\n$/);
    expect(JSON.parse(json.text())).toMatchObject({ level: 30, msg: 'listening', url: 'http://x' });
  });

  it('is refused as configuration when LOG_FORMAT is neither json nor pretty', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
  });
});
