import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installLastResort } from '../../src/last-resort.js';

function setup(ready = true) {
  const proc = new EventEmitter();
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const log = (level: string) => (fields: Record<string, unknown>, msg: string) =>
    void lines.push({ level, fields, msg });
  const logger = { error: log('error'), fatal: log('fatal') };
  let clock = 0;
  const stops: string[] = [];
  installLastResort(proc, { logger, ready: () => ready, stop: (reason) => void stops.push(reason), now: () => clock });
  return { proc, lines, stops, advance: (ms: number) => (clock += ms) };
}

describe('the last line of defence of the process', () => {
  it('logs an unhandled rejection with an id and its stack, and keeps serving', () => {
    const { proc, lines, stops } = setup();
    proc.emit('unhandledRejection', new Error('lost promise'), Promise.resolve());
    expect(lines).toEqual([
      {
        level: 'error',
        fields: {
          errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          err: expect.objectContaining({ message: 'lost promise' }),
        },
        msg: expect.stringContaining('unhandled rejection'),
      },
    ]);
    expect(stops).toEqual([]);
  });

  it('logs an uncaught exception with an id and keeps serving, but stops after more than 10 in a minute', () => {
    const { proc, lines, stops, advance } = setup();
    for (let i = 0; i < 10; i++) {
      proc.emit('uncaughtException', new TypeError(`bad ${i}`), 'uncaughtException');
      advance(5_000);
    }
    expect(stops).toEqual([]);
    expect(new Set(lines.map((l) => l.fields.errorId)).size).toBe(10);
    advance(20_000);
    proc.emit('uncaughtException', new TypeError('bad 10'), 'uncaughtException');
    expect(stops).toEqual([]);
    for (let i = 0; i < 10; i++) proc.emit('uncaughtException', new TypeError('burst'), 'uncaughtException');
    expect(stops).toEqual(['uncaughtException']);
  });

  it('stops at the first uncaught exception while the server is not ready yet', () => {
    const { proc, stops, lines } = setup(false);
    proc.emit('uncaughtException', new Error('during start'), 'uncaughtException');
    expect(stops).toEqual(['uncaughtException']);
    expect(lines[0]?.level).toBe('fatal');
  });

  it('logs a rejection whose reason is not an Error', () => {
    const { proc, lines } = setup();
    proc.emit('unhandledRejection', null, Promise.resolve());
    expect(lines[0]?.fields).toMatchObject({ err: { message: 'null' } });
  });
});
