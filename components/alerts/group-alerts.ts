import type { Alert } from "@/lib/schemas/alerts";

export interface AlertGroup {
  key: string;
  /** Null for results alerts, which belong to a company's report, not a call. */
  callId: string | null;
  symbol: string | null;
  alerts: Alert[];
  unread: number;
}

/**
 * The inbox's alerts by call, the call with the newest alert first and each call's alerts newest first (the order
 * they came in, since the inbox lists newest first). Results alerts group by company. Pages loaded later merge into
 * the groups they belong to.
 */
export function groupByCall(alerts: readonly Alert[]): AlertGroup[] {
  const groups = new Map<string, AlertGroup>();
  for (const alert of alerts) {
    const key = alert.callId ? `call:${alert.callId}` : `results:${alert.symbol}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, callId: alert.callId, symbol: alert.symbol, alerts: [], unread: 0 };
      groups.set(key, group);
    }
    group.alerts.push(alert);
    if (!alert.read) group.unread += 1;
  }
  return [...groups.values()];
}
