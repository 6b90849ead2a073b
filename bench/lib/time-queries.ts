/**
 * Times a list of searches one after another, after one untimed pass over the first 20 (it warms the caches:
 * Postgres's buffers, PGlite's, as a running server's would be): bench/search.ts's and bench/scale-sim.ts's
 * measuring loop.
 */
export async function timeQueries<Q extends { kind: string }>(
  queries: readonly Q[],
  run: (query: Q) => Promise<unknown>,
): Promise<{ times: number[]; byKind: Map<string, number[]> }> {
  for (const q of queries.slice(0, 20)) await run(q);
  const times: number[] = [];
  const byKind = new Map<string, number[]>();
  for (const q of queries) {
    const t0 = performance.now();
    await run(q);
    const ms = performance.now() - t0;
    times.push(ms);
    byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ms]);
  }
  return { times, byKind };
}
