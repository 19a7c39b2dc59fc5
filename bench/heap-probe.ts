/**
 * Preloaded into the access bench's server child (bench/access-server.ts, with `--expose-gc`): on
 * SIGUSR2 it runs full garbage collections and prints the live heap and the event loop's delay
 * since the previous probe as one stdout line
 * `heap-probe {"heapUsed":…,"rss":…,"loopMaxMs":…,"loopP99Ms":…}` (the histogram then starts
 * again). It only samples the loop's delay until signalled, so the figures measured between two
 * probes are the server's own.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

process.on('SIGUSR2', () => {
  const loopMaxMs = loop.max / 1e6;
  const loopP99Ms = loop.percentile(99) / 1e6;
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  loop.reset();
  process.stdout.write(
    `heap-probe ${JSON.stringify({ heapUsed, rss, loopMaxMs, loopP99Ms, collected: gc !== undefined })}\n`,
  );
});
