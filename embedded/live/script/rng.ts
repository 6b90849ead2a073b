/**
 * A tiny deterministic PRNG for call content. Call scripts must be identical on every machine for a given
 * `call_id` (docs/upstream.md §7: "deterministic by call_id"), so nothing here may depend on `Math.random` or the clock.
 */

export interface ScriptRng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** Fisher–Yates copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** A child stream: stable however many numbers the parent draws afterwards. */
  fork(label: string): ScriptRng;
}

/**
 * cyrb128: four 32-bit words from a string. Not cryptographic, and need not be: labels are ours, and a call's
 * script forks a few hundred streams, so seeding must cost microseconds (a SHA-256 per fork made listing a year
 * of calls take seconds).
 */
function seedWords(label: string): [number, number, number, number] {
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

/**
 * sfc32. A class rather than an object of closures: a call's script creates a few hundred of these, and per-instance
 * closures (each named at run time by the TypeScript loader) cost more than the numbers they draw.
 */
class Sfc32 implements ScriptRng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(private readonly label: string) {
    [this.a, this.b, this.c, this.d] = seedWords(label);
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

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  fork(child: string): ScriptRng {
    return new Sfc32(`${this.label}/${child}`);
  }
}

export function createScriptRng(label: string): ScriptRng {
  return new Sfc32(label);
}
