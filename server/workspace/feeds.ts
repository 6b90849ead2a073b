import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import ical from "ical-generator";
import { formatEps, formatMoney } from "@/lib/format";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListItem } from "@/lib/schemas/calls";
import type { Db } from "../db/database";
import { feedTokens } from "../db/schema/workspace";

/**
 * The calendar feed: a secret URL per user (`/api/feeds/<token>.ics`) that a calendar application subscribes to
 * without signing in, listing the upcoming reports of every followed company. The token is the only credential, so
 * it is 256 random bits, only its SHA-256 is stored, issuing a new one revokes the old, and revoking removes it.
 */

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class FeedTokenRepository {
  constructor(private readonly db: Db) {}

  /** A new token for the user (the previous one stops working); shown once, since only its hash is kept. */
  async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await this.db
      .insert(feedTokens)
      .values({ userId, tokenHash: hash(token) })
      .onConflictDoUpdate({
        target: feedTokens.userId,
        set: { tokenHash: hash(token), createdAt: new Date().toISOString() },
      });
    return token;
  }

  async revoke(userId: string): Promise<void> {
    await this.db.delete(feedTokens).where(eq(feedTokens.userId, userId));
  }

  async issuedAt(userId: string): Promise<string | null> {
    const [row] = await this.db.select().from(feedTokens).where(eq(feedTokens.userId, userId));
    return row ? new Date(row.createdAt).toISOString() : null;
  }

  /** The user a token belongs to, or `null`. */
  async userFor(token: string): Promise<string | null> {
    if (!FEED_TOKEN_PATTERN.test(token)) return null;
    const [row] = await this.db
      .select()
      .from(feedTokens)
      .where(eq(feedTokens.tokenHash, hash(token)));
    return row?.userId ?? null;
  }
}

const REPORT_MINUTES = 60;

/** What the feed needs of a report's call. */
export type FeedCall = Pick<CallListItem, "callId" | "status" | "startTime" | "endTime" | "durationSeconds">;

/** What an event UID may carry of an upstream record id as is; anything else is hashed. */
const SAFE_RECORD_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The event's UID: stable per record (a calendar application updates a moved date in place) and safe whatever the
 * upstream sent as the record id (which is untrusted input: line breaks, `@`, or a kilobyte of text would otherwise
 * land in every subscriber's calendar).
 */
export function eventUid(recordId: string): string {
  const part = SAFE_RECORD_ID.test(recordId)
    ? recordId
    : `h${createHash("sha256").update(recordId).digest("hex").slice(0, 32)}`;
  return `earnings-${part}@callroom`;
}

/**
 * Upcoming reports as iCalendar: a timed event (UTC, one hour) when the report time is known, else an all-day event
 * on the report date. Event ids are stable per record, so a calendar application updates a moved date in place.
 */
export function earningsIcs(
  rows: readonly EarningsRow[],
  options: {
    name: string;
    baseUrl: string;
    now?: Date;
    /** Each report's call, when known (live or over): its event starts at the call and opens the call room. */
    calls?: ReadonlyMap<string, FeedCall>;
  },
): string {
  const calendar = ical({
    name: options.name,
    prodId: { company: "Callroom", product: "Watchlist calendar", language: "EN" },
    ttl: 60 * 60,
  });
  for (const row of rows) {
    const period = [row.period, row.periodYear].filter((x) => x !== null).join(" ");
    const estimates = [
      row.epsEst !== null ? `EPS estimate ${formatEps(row.epsEst)}` : null,
      row.revenueEst !== null
        ? `revenue estimate ${formatMoney(row.revenueEst, row.currency ?? "USD")}`
        : null,
    ].filter(Boolean);
    const call = options.calls?.get(row.id);
    const url = call
      ? `${options.baseUrl}/calls/${encodeURIComponent(call.callId)}`
      : `${options.baseUrl}/companies/${encodeURIComponent(row.ticker)}`;
    const description = [
      `${row.name} (${row.ticker})${period ? ` ${period}` : ""} results${row.isDateConfirmed ? "" : " (date not confirmed)"}.`,
      call ? `Earnings call${call.status === "live" ? " (live now)" : ""}: open it in Callroom.` : null,
      estimates.length ? `${estimates.join(", ")}.` : null,
      url,
    ]
      .filter(Boolean)
      .join("\n");
    const common = {
      id: eventUid(row.id),
      summary: `${row.ticker} ${period ? `${period} ` : ""}earnings${row.isDateConfirmed ? "" : " (unconfirmed)"}`,
      description,
      url,
      stamp: options.now ?? new Date(),
    };
    if (call) {
      // The call, once known, is the moment the reader wants in the calendar, not the release before it.
      const start = new Date(call.startTime);
      const endMs = call.endTime
        ? Date.parse(call.endTime)
        : start.getTime() + (call.durationSeconds ?? REPORT_MINUTES * 60) * 1000;
      calendar.createEvent({
        ...common,
        summary: `${row.ticker} ${period ? `${period} ` : ""}earnings call`,
        start,
        end: new Date(Math.max(endMs, start.getTime() + 15 * 60_000)),
      });
    } else if (row.startsAt) {
      const start = new Date(row.startsAt);
      calendar.createEvent({ ...common, start, end: new Date(start.getTime() + REPORT_MINUTES * 60_000) });
    } else {
      calendar.createEvent({ ...common, start: new Date(`${row.date}T00:00:00Z`), allDay: true });
    }
  }
  return calendar.toString();
}
