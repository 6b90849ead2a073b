/**
 * Shared helpers of the benchmarks: percentiles, load average, process RSS, free ports, timeouts.
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
