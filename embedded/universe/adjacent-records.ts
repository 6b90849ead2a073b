/**
 * A company's report `step` quarters before (−1) or after (+1) a record, also when it lies outside the calendar's
 * window: the universe keeps every quarter of its model. The next record matters as much as the previous one: a
 * company that reported just before the window's end of "now + 90 days" is followed by its next report about 91 days
 * later, outside the window, and its call must still guide for that quarter (docs/embedded-history.md). The call
 * store and the demo-call tests read neighbours through this one function, so they agree on every date.
 */
import { toEarningsRecord, type ReportEvent } from "./calendar";
import { internalsOf } from "./index";
import type { Universe } from "./types";
import type { WireEarningsRecord } from "./wire";

export type AdjacentRecord = (
  record: WireEarningsRecord,
  step: -1 | 1,
  nowMs: number,
) => WireEarningsRecord | undefined;

export function adjacentRecords(universe: Universe): AdjacentRecord {
  let eventsBySymbol: Map<string, ReportEvent[]> | null | undefined;
  const events = (): Map<string, ReportEvent[]> | null => {
    if (eventsBySymbol !== undefined) return eventsBySymbol;
    try {
      const bySymbol = new Map<string, ReportEvent[]>();
      for (const event of internalsOf(universe).events) {
        const list = bySymbol.get(event.entry.company.symbol) ?? [];
        list.push(event);
        bySymbol.set(event.entry.company.symbol, list);
      }
      eventsBySymbol = bySymbol;
    } catch {
      // A hand-made universe (tests) has no model behind it: the window's own records are all there is.
      eventsBySymbol = null;
    }
    return eventsBySymbol;
  };
  return (record, step, nowMs) => {
    const list = events()?.get(record.ticker);
    if (!list) return undefined;
    const index = list.findIndex((e) => e.id === record.id);
    const adjacent = index >= 0 ? list[index + step] : undefined;
    return adjacent ? toEarningsRecord(adjacent, nowMs) : undefined;
  };
}
