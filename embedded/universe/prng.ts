/**
 * The embedded service's one pseudo-random generator (sfc32), with its two ways of seeding a stream. Everything
 * random in the demo is a pure function of a label (and the universe seed), never of `Math.random` or the clock, so
 * every machine shows the same world (docs/embedded-history.md, "Determinism"):
 * - `createRng(seed, label)`: the universe's streams (`"fin:NWSC"`), so adding a company or a field never reshuffles
 *   unrelated data;
 * - `rngFromLabel(label)`: a call's streams (`"call-script|<call_id>"`), forked by name (`fork("qa")`) so that what a
 *   section says does not depend on how many numbers another section drew.
 */

/** FNV-1a then a murmur-style finaliser: a well-mixed 32-bit hash of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * cyrb128: four 32-bit words from a string. Not cryptographic, and need not be: labels are ours, and a call's
 * script forks a few hundred streams, so seeding must cost microseconds (a SHA-256 per fork made listing a year
 * of calls take seconds).
 */
function cyrb128(label: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < label.length; i++) {
    const k = label.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Picks by weight; `weights` are relative. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** Fisher–Yates copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** A child stream named `label`: stable however many numbers this one draws, before or after. */
  fork(label: string): Rng;
}

/**
 * sfc32: small, fast, and passes PractRand far beyond what the demo needs. A class rather than an object of
 * closures: a call's script creates a few hundred of these, and per-instance closures (each named at run time by
 * the TypeScript loader) cost more than the numbers they draw.
 */
class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(
    [a, b, c, d]: readonly [number, number, number, number],
    private readonly label: string,
  ) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    // Warm-up, as sfc32's authors advise: the first outputs of similar seeds are correlated.
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((s, w) => s + w, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  fork(child: string): Rng {
    return rngFromLabel(`${this.label}/${child}`);
  }
}

/** A universe stream: `label` under the universe's `seed`. */
export function createRng(seed: number, label: string): Rng {
  const words = [
    hashString(`${seed}|a|${label}`),
    hashString(`${seed}|b|${label}`),
    hashString(`${seed}|c|${label}`),
    1,
  ] as const;
  return new Sfc32(words, `${seed}|${label}`);
}

/** A stream named by its label alone (a call's script, its timings). */
export function rngFromLabel(label: string): Rng {
  return new Sfc32(cyrb128(label), label);
}
