/**
 * Market coupling of the demo: per hour, zones linked by uncongested borders form one price
 * cluster; congested borders split clusters. Pure apart from the random stream passed in.
 */
import type { BorderProfile } from './profiles.js';
import type { Rng } from './rng.js';

/** Finds the root of `i` with path halving. */
function find(parent: Int32Array, i: number): number {
  let x = i;
  while (parent[x] !== x) {
    const up = parent[parent[x] as number] as number;
    parent[x] = up;
    x = up;
  }
  return x;
}

/**
 * Decides, for one hour, which borders congest: a border congests when the gap between its zones'
 * isolated prices (EUR/MWh) exceeds a random share (50-150 %) of its tolerance.
 * @returns one flag per border, 1 = congested.
 */
export function congestedBorders(isolated: ArrayLike<number>, borders: readonly BorderProfile[], rng: Rng): Uint8Array {
  const out = new Uint8Array(borders.length);
  for (let j = 0; j < borders.length; j++) {
    const b = borders[j] as BorderProfile;
    const gap = Math.abs((isolated[b.ia] as number) - (isolated[b.ib] as number));
    out[j] = gap > b.tolerance * rng.range(0.5, 1.5) ? 1 : 0;
  }
  return out;
}

/**
 * Clusters zones joined by uncongested borders.
 * @returns the cluster root of each zone (zones with the same root share one price).
 */
export function priceClusters(zoneCount: number, borders: readonly BorderProfile[], congested: Uint8Array): Int32Array {
  const parent = new Int32Array(zoneCount);
  for (let i = 0; i < zoneCount; i++) parent[i] = i;
  borders.forEach((b, j) => {
    if (congested[j]) return;
    const ra = find(parent, b.ia);
    const rb = find(parent, b.ib);
    if (ra !== rb) parent[ra] = rb;
  });
  for (let i = 0; i < zoneCount; i++) parent[i] = find(parent, i);
  return parent;
}

/**
 * Coupled prices: each zone gets the weight-averaged isolated price of its cluster (EUR/MWh).
 * `out` receives one value per zone.
 */
export function clusterPrices(
  isolated: ArrayLike<number>,
  weights: ArrayLike<number>,
  roots: Int32Array,
  out: Float64Array,
): void {
  const n = roots.length;
  const sum = new Float64Array(n);
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = roots[i] as number;
    sum[r] = (sum[r] as number) + (isolated[i] as number) * (weights[i] as number);
    weight[r] = (weight[r] as number) + (weights[i] as number);
  }
  for (let i = 0; i < n; i++) {
    const r = roots[i] as number;
    out[i] = (sum[r] as number) / (weight[r] as number);
  }
}
