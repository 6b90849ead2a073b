import { parseAsBoolean, parseAsString } from "nuqs/server";
import type { InboxFilter } from "@/lib/queries/alerts";

/** The inbox's filters in the URL (nuqs): read by the view and, for the first HTML, by the page on the server. */
export const inboxParams = {
  ticker: parseAsString,
  rule: parseAsString,
  unread: parseAsBoolean.withDefault(false),
  flat: parseAsBoolean.withDefault(false),
};

/** The inbox query's filter for the URL's parameters (one definition, so the server's prefetch is the view's key). */
export function inboxFilter(params: {
  ticker: string | null;
  rule: string | null;
  unread: boolean;
}): InboxFilter {
  return {
    ticker: params.ticker ?? undefined,
    ruleId: params.rule ?? undefined,
    unread: params.unread || undefined,
  };
}
