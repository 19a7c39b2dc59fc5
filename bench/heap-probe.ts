/**
 * Preloaded into the access bench's server child (bench/access-server.ts, with `--expose-gc`): on
 * SIGUSR2 it runs full garbage collections and prints the live heap as one stdout line
 * `heap-probe {"heapUsed":…,"rss":…}`. It does nothing until signalled, so the figures measured
 * between two probes are the server's own.
 */
process.on('SIGUSR2', () => {
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`heap-probe ${JSON.stringify({ heapUsed, rss, collected: gc !== undefined })}\n`);
});
