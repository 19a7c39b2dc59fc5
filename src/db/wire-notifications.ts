/**
 * `LISTEN/NOTIFY` for the embedded engine's wire server. The engine has one session, shared by
 * every wire connection: a notification is written into the protocol output of whichever
 * connection's statement delivered it (the one that committed the NOTIFY), never to a connection
 * that ran `LISTEN`. So the engine's thread LISTENs itself and {@link forwardNotifications} picks
 * the NotificationResponse messages out of every output on their way to the clients.
 */
import type { WireEngine } from './copy-batching.js';

const NOTIFICATION_RESPONSE = 0x41; // 'A'

/** A notification: its channel and payload (text). */
export interface WireNotification {
  readonly channel: string;
  readonly payload: string;
}

/**
 * Reads the messages of one protocol output delivered in chunks of any size, calling `found` for
 * each NotificationResponse. Only notification bodies are buffered; other messages are skipped.
 */
export function notificationScanner(found: (n: WireNotification) => void): (chunk: Uint8Array) => void {
  const header = Buffer.alloc(5);
  let headerBytes = 0;
  let skip = 0;
  let body: Buffer | null = null;
  let bodyBytes = 0;
  return (chunk) => {
    const data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = 0; at < data.length; ) {
      if (skip > 0) {
        const n = Math.min(skip, data.length - at);
        skip -= n;
        at += n;
      } else if (body) {
        const n = Math.min(body.length - bodyBytes, data.length - at);
        data.copy(body, bodyBytes, at, at + n);
        bodyBytes += n;
        at += n;
        if (bodyBytes === body.length) {
          const channelEnd = body.indexOf(0, 4);
          const payloadEnd = body.indexOf(0, channelEnd + 1);
          found({
            channel: body.toString('utf8', 4, channelEnd),
            payload: body.toString('utf8', channelEnd + 1, payloadEnd),
          });
          body = null;
        }
      } else {
        const n = Math.min(5 - headerBytes, data.length - at);
        data.copy(header, headerBytes, at, at + n);
        headerBytes += n;
        at += n;
        if (headerBytes < 5) continue;
        headerBytes = 0;
        const length = header.readInt32BE(1) - 4;
        if (header[0] === NOTIFICATION_RESPONSE) {
          body = Buffer.alloc(length);
          bodyBytes = 0;
        } else skip = length;
      }
    }
  };
}

/** Wraps `engine` so every notification in its protocol outputs also reaches `onNotification`. */
export function forwardNotifications<E extends WireEngine>(
  engine: E,
  onNotification: (n: WireNotification) => void,
): E {
  const run: WireEngine['execProtocolRawStream'] = (message, options) => {
    const scan = notificationScanner(onNotification);
    return engine.execProtocolRawStream(message, {
      onRawData: (data) => {
        scan(data);
        options.onRawData(data);
      },
    });
  };
  return new Proxy(engine, {
    get(target, key, receiver) {
      if (key === 'execProtocolRawStream') return run;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
