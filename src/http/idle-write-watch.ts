/** What {@link idleWriteWatch} reads of Node's response: its unsent bytes and its socket's delivered ones. */
export interface WriteProgress {
  readonly writableFinished?: boolean;
  /** Bytes written to the response and not yet handed to the kernel (the socket's queue included). */
  readonly writableLength?: number;
  readonly socket?: {
    readonly bytesWritten?: number;
    /** libuv's stream handle: `writeQueueSize` is the bytes it still holds, lowered by every partial write. */
    readonly _handle?: { readonly writeQueueSize?: number } | null;
  } | null;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * What changes whenever the socket moves bytes: its count of bytes taken, and libuv's count of bytes it
 * still holds (a single large write is handed over in parts, which only the latter shows).
 */
function delivered(res: WriteProgress): string | undefined {
  const socket = res.socket;
  if (!socket || typeof socket.bytesWritten !== 'number') return undefined;
  return `${socket.bytesWritten}:${socket._handle?.writeQueueSize ?? ''}`;
}

/**
 * Ends responses whose client stopped reading: a watched response that has bytes waiting while its
 * socket hands none to the kernel for `idleMs` gets `onIdle`. A response with nothing waiting (its
 * producer is slow, not its reader) is never idle. Driven by the socket's byte counts rather than its
 * timer, which the Fetch adapter turns off (`setTimeout(0)`) for streamed bodies after the response
 * hooks ran. A check that runs late (the event loop was busy, so nothing could be written) counts as
 * progress. Each watch checks every quarter of `idleMs` (at most every second) until the response closes.
 */
export function idleWriteWatch(idleMs: number): { watch(res: WriteProgress, onIdle: () => void): void } {
  const tickMs = Math.max(50, Math.min(1_000, Math.floor(idleMs / 4)));
  return {
    watch(res, onIdle) {
      let last = delivered(res);
      let lastAt = Date.now();
      let tickAt = lastAt;
      const timer = setInterval(() => {
        const now = Date.now();
        const late = now - tickAt > 2 * tickMs;
        tickAt = now;
        const sent = delivered(res);
        if (late || res.writableFinished || !res.writableLength || sent === undefined || sent !== last) {
          last = sent;
          lastAt = now;
          return;
        }
        if (now - lastAt >= idleMs) {
          clearInterval(timer);
          onIdle();
        }
      }, tickMs);
      timer.unref();
      res.once('close', () => clearInterval(timer));
    },
  };
}
