"use client";

import { Badge } from "@/components/ui/badge";
import {
  EXCHANGE_TIME_ZONE,
  MISSING,
  SESSION_LABEL,
  SESSION_TITLE,
  formatTimeInZone,
  marketSession,
} from "@/lib/format";
import { easternToDate } from "@/common/time/eastern";

/**
 * BMO / during market / AMC plus the time in the reader's zone; the exchange time (US Eastern) is on hover.
 * Client-only rendering: the reader's zone is not known on the server.
 */
export function ReportTime({
  date,
  time,
  timeZone,
}: {
  date: string;
  time: string | null;
  timeZone: string;
}) {
  const session = marketSession(time);
  const instant = time ? easternToDate(date, time) : null;
  if (!session || !instant)
    return (
      <span className="text-muted" title="Time not announced">
        {MISSING}
      </span>
    );
  const exchange = formatTimeInZone(instant, EXCHANGE_TIME_ZONE);
  const local = formatTimeInZone(instant, timeZone);
  return (
    <span
      className="inline-flex items-center gap-1.5"
      title={`${SESSION_TITLE[session]} · ${exchange} (exchange time, US Eastern)`}
    >
      <Badge tone="neutral" className="w-[88px] justify-center">
        {SESSION_LABEL[session]}
      </Badge>
      <span className="tabular-nums">{local}</span>
    </span>
  );
}
