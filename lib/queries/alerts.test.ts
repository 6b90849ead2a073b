import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Alert, AlertList } from "@/lib/schemas/alerts";
import { alertQueries, lowerUnread, markReadInCache } from "./alerts";

const alert = (id: string): Alert => ({
  id,
  ruleId: "1",
  kind: "keyword",
  rules: [{ ruleId: "1", kind: "keyword", label: "“x”", matched: [], detail: null }],
  callId: "c".repeat(24),
  symbol: "NWSC",
  sequence: Number(id),
  startMs: 0,
  text: `Alert ${id}`,
  firedAt: "2026-11-24T20:00:00.000Z",
  read: false,
});
const page = (...ids: string[]): AlertList => ({ data: ids.map(alert), unread: ids.length });

describe("the inbox's pages", () => {
  const options = alertQueries.inboxPages({}, 3);
  const next = (last: AlertList) => options.getNextPageParam(last, [last], null, [null]);

  it("asks for older alerts before the oldest one shown while pages come back full", () => {
    expect(next(page("9", "8", "7"))).toBe("7");
  });

  it("stops at a page that is not full: there is nothing older", () => {
    expect(next(page("2", "1"))).toBeNull();
    expect(next(page())).toBeNull();
  });

  it("starts at the newest and shares the inbox's key, so a new alert refreshes it", () => {
    expect(options.initialPageParam).toBeNull();
    expect(options.queryKey.slice(0, 2)).toEqual([...alertQueries.all(), "inbox"]);
  });
});

describe("marking read in the cache", () => {
  it("turns the alert in the bell's list and every inbox view, and lowers the one shared count once", () => {
    const client = new QueryClient();
    client.setQueryData(alertQueries.inbox().queryKey, { ...page("3", "2", "1"), unread: 3 });
    const pages = (): InfiniteData<AlertList> => ({
      pages: [page("3", "2", "1")],
      pageParams: [null],
    });
    client.setQueryData(alertQueries.inboxPages({}).queryKey, pages());
    client.setQueryData(alertQueries.inboxPages({ ticker: "NWSC" }).queryKey, pages());

    lowerUnread(
      client,
      markReadInCache(client, (a) => a.id === "2"),
    );

    const bell = client.getQueryData<AlertList>(alertQueries.inbox().queryKey)!;
    expect(bell.unread).toBe(2);
    expect(bell.data.map((a) => a.read)).toEqual([false, true, false]);
    for (const filter of [{}, { ticker: "NWSC" }]) {
      const view = client.getQueryData<InfiniteData<AlertList>>(alertQueries.inboxPages(filter).queryKey)!;
      expect(view.pages[0]!.data.map((a) => a.read)).toEqual([false, true, false]);
    }
    // Already read: nothing more to lower.
    lowerUnread(
      client,
      markReadInCache(client, (a) => a.id === "2"),
    );
    expect(client.getQueryData<AlertList>(alertQueries.inbox().queryKey)!.unread).toBe(2);
  });
});
