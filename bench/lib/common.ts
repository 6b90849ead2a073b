/**
 * Shared helpers of the benchmarks: percentiles, a seeded random generator, load average, process RSS, free ports,
 * timeouts. A benchmark run as a child process: child-bench.ts.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
export { freePort } from "../../test/support/free-port";

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same synthetic data on every run. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const round = (value: number, digits = 1): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** 1-, 5- and 15-minute load averages, rounded: recorded beside every figure (the machine is shared). */
export function loadAverage(): [number, number, number] {
  const [a, b, c] = loadavg();
  return [round(a ?? 0, 2), round(b ?? 0, 2), round(c ?? 0, 2)];
}

/** Resident set size of a process in kB (VmRSS), or null when it is gone. */
export function rssKb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects when `promise` takes longer than `ms`: every benchmark is bounded in time. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
    }),
  ]);
}

export async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export function log(message: string): void {
  console.log(`[bench] ${message}`);
}
