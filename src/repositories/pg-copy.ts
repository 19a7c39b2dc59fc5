/**
 * `COPY ... FROM STDIN` over node-postgres without pg-copy-streams: a minimal "submittable" query
 * that answers the server's CopyInResponse with the payload in CopyData messages.
 */
import type pg from 'pg';

/** The part of pg's internal connection the copy-in protocol uses. */
interface WireConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

class CopyInQuery {
  readonly done: Promise<void>;
  private settle!: (error?: Error) => void;

  constructor(
    private readonly text: string,
    private readonly payload: Buffer,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      let settled = false;
      this.settle = (error) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      };
    });
  }

  submit(connection: WireConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: WireConnection): void {
    for (let at = 0; at < this.payload.length; at += CHUNK_BYTES) {
      connection.sendCopyFromChunk(this.payload.subarray(at, at + CHUNK_BYTES));
    }
    connection.endCopyFrom();
  }

  /** pg detaches the active query on an error, so ReadyForQuery never reaches it: settle here. */
  handleError(error: Error): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle();
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Sends `payload` (in the format `copySql` names) to `copySql` (`COPY t (...) FROM STDIN ...`). */
export async function copyIn(client: pg.PoolClient, copySql: string, payload: Uint8Array): Promise<void> {
  const query = new CopyInQuery(copySql, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
  (client as unknown as { query(q: CopyInQuery): unknown }).query(query);
  await query.done;
}
