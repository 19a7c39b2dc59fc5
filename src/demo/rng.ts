/** Seeded pseudo-random numbers for the demo generator (pure-rand xoroshiro128+). Deterministic. */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

const TWO_POW_32 = 0x1_0000_0000;

/** A mutable seeded random stream; one per generator component keeps components independent. */
export class Rng {
  private readonly gen;
  private spare: number | null = null;

  /** @param seed any integer; `stream` names the component so streams of one seed differ. */
  constructor(seed: number, stream = '') {
    this.gen = xoroshiro128plus((seed ^ hashString(stream)) | 0);
  }

  /** Uniform in [0, 1). */
  u(): number {
    return (this.gen.next() >>> 0) / TWO_POW_32;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.u();
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.u() * (hi - lo + 1));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.u() < p;
  }

  /** Standard normal (Box-Muller, caching the second value). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u1 = 1 - this.u();
    const u2 = this.u();
    const r = Math.sqrt(-2 * Math.log(u1));
    this.spare = r * Math.sin(2 * Math.PI * u2);
    return r * Math.cos(2 * Math.PI * u2);
  }
}

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
