/**
 * Long computations written as generators that yield between steps: {@link drain} runs one at
 * once, {@link drainYielding} gives the event loop a turn between steps (a server generating its
 * demo data on a first start still answers `/healthz` meanwhile).
 */

/** Runs `steps` to its end and returns its result. */
export function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps` to its end, letting queued I/O callbacks run between steps; resolves with its result. */
export async function drainYielding<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
