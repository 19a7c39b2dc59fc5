import { connect } from 'node:net';

/** Sends `request` as is to 127.0.0.1:`port` and resolves with everything the server wrote before closing. */
export function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no close within 10 s; got: ${text}`)));
  });
}
