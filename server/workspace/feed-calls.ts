import "server-only";
import { matchCallsToRows } from "@/lib/call-match";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListItem } from "@/lib/schemas/calls";
import { PromiseMemo } from "../insights/memo";
import { inBackground } from "../upstream/budget";
import { listCallsStartedSince } from "../upstream/calls";
import type { Upstream } from "../upstream/client";
import type { FeedCall } from "./feeds";

/** Calls of a week: a few pages of 100 in the busiest season. */
const MAX_PAGES = 5;
/**
 * The calls since a day are the same for every user: read once a minute however often feeds are polled (a feed
 * must not amplify into upstream reads: docs/workspace.md, Calendar feed).
 */
const CALLS_TTL_MS = 60_000;
const recent = new PromiseMemo<CallListItem[]>(CALLS_TTL_MS, 16);

/**
 * The calls of the feed's reports that have one (live, or over): every call started since the day before the oldest
 * report due so far, matched to its report by quarter or date (lib/call-match.ts). Reports still to come have none;
 * when the calls cannot be read, the feed goes out without them (each event at its release time) rather than not
 * at all.
 */
export async function feedCalls(
  upstream: Upstream,
  rows: readonly EarningsRow[],
  now = new Date(),
): Promise<Map<string, FeedCall>> {
  const due = rows.filter((r) => Date.parse(`${r.date}T23:59:59Z`) - 86_400_000 <= now.getTime());
  if (due.length === 0) return new Map();
  const oldest = due.reduce((min, r) => (r.date < min ? r.date : min), due[0]!.date);
  const from = new Date(Date.parse(`${oldest}T00:00:00Z`) - 86_400_000).toISOString();
  try {
    const calls = await recent.get(from, () =>
      inBackground(async () => {
        const all: CallListItem[] = [];
        for (let page = 1; page <= MAX_PAGES; page++) {
          const batch = await listCallsStartedSince(upstream, from, { page });
          all.push(...batch);
          if (batch.length < 100) break;
        }
        return all;
      }),
    );
    return matchCallsToRows(due, calls);
  } catch {
    return new Map();
  }
}
