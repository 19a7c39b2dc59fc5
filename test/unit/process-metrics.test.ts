import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/ops/metrics.js';

describe("prom-client's process metrics", () => {
  it('are one set per process, exposed by every app built in it, and left out when not wanted', async () => {
    const first = createMetrics();
    const second = createMetrics();
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(first.registry.getSingleMetric(name), name).toBeDefined();
      expect(second.registry.getSingleMetric(name)).toBe(first.registry.getSingleMetric(name));
    }
    expect(await second.registry.metrics()).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(
      createMetrics({ defaultMetrics: false }).registry.getSingleMetric('nodejs_eventloop_lag_seconds'),
    ).toBeUndefined();
  });
});
