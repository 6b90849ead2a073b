/**
 * Request counters for `GET /__embedded/stats`. They count REST requests that presented a valid key with the right
 * plan (whatever happened next: rate limit, fault or success), because they exist to let tests prove how many calls
 * a client really made (coalescing, caching). Control routes and signed media links are not counted.
 */
export class RequestStats {
  private total = 0;
  private readonly byPath = new Map<string, number>();
  private readonly byStatus = new Map<number, number>();

  /** `path` is the request's path without the query, e.g. `/api/v2.1/calendar/earnings`. */
  count(path: string): void {
    this.total++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
  }

  /** The status the counted request was answered with (429 for the rate limit, 200, …). */
  countStatus(status: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }

  snapshot(): { total: number; byPath: Record<string, number>; byStatus: Record<string, number> } {
    return {
      total: this.total,
      byPath: Object.fromEntries(this.byPath),
      byStatus: Object.fromEntries([...this.byStatus].map(([status, n]) => [String(status), n])),
    };
  }
}
