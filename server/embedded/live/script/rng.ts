/**
 * A tiny deterministic PRNG for call content. Call scripts must be identical on every machine for a given
 * `call_id` (contract §7: "deterministic by call_id"), so nothing here may depend on `Math.random` or the clock.
 */
import { createHash } from "node:crypto";

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

function seedWords(label: string): [number, number, number, number] {
  const digest = createHash("sha256").update(label).digest();
  return [digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)];
}

export function createScriptRng(label: string): ScriptRng {
  let [a, b, c, d] = seedWords(label);
  const next = (): number => {
    // sfc32
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const rng: ScriptRng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p) => next() < p,
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
    fork: (child) => createScriptRng(`${label}/${child}`),
  };
  return rng;
}
