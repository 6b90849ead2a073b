"use client";

import { useQuery } from "@tanstack/react-query";
import { CallLink } from "@/components/calendar/call-link";
import { formatClock } from "@/components/calls/call-format";
import { Section } from "@/components/ui/card";
import { IntentLink } from "@/components/ui/intent-link";
import { LocalTime } from "@/components/ui/local-time";
import { ScrollTable, Td, Th, Tr } from "@/components/ui/table";
import { callHref } from "@/lib/call-links";
import { formatCount } from "@/lib/format";
import { callQueries, summaryByCallId } from "@/lib/queries/calls";
import { companyFilters } from "@/lib/queries/company";
import { QueryPanel } from "./query-panel";

/** Every call of the company (live first, then newest), with the state and the summary's first line. */
export function useCompanyCalls(symbol: string) {
  return useQuery(callQueries.list(companyFilters.calls(symbol)));
}

/**
 * The company's calls: every one the service lists, live and archived, each a way into its call room, with the
 * summary's first point when the call has been summarised.
 */
export function CompanyCalls({ symbol }: { symbol: string }) {
  const calls = useCompanyCalls(symbol);
  const summaries = useQuery({
    ...callQueries.summaries({ tickers: [symbol], page: 0, pageSize: 100 }),
    enabled: Boolean(calls.data?.data.length),
  });
  const summaryMap = summaryByCallId(summaries.data?.data ?? []);
  return (
    <Section
      title={
        <>
          Calls{" "}
          {calls.data ? (
            <span className="text-muted font-normal">· {formatCount(calls.data.meta.total, "call")}</span>
          ) : null}
        </>
      }
      id="calls"
      actions={
        <IntentLink
          href={`/calls?tickers=${encodeURIComponent(symbol)}`}
          className="text-accent text-[13px] hover:underline"
        >
          In the calls list →
        </IntentLink>
      }
    >
      <QueryPanel
        result={calls}
        what="calls"
        isEmpty={(d) => d.data.length === 0}
        emptyTitle="No calls of this company yet."
        emptyHint="Its calls appear here when they start, and stay here once they are over."
      >
        {(d) => (
          <ScrollTable caption={`Calls of ${symbol}, live first, then newest`} className="max-h-[420px]">
            <thead>
              <tr>
                <Th>Started</Th>
                <Th>Quarter</Th>
                <Th>Call</Th>
                <Th numeric>Length</Th>
                <Th>Summary</Th>
              </tr>
            </thead>
            <tbody data-testid="company-calls">
              {d.data.map((call) => {
                const first = summaryMap.get(call.callId)?.points[0] ?? call.headline ?? null;
                return (
                  <Tr key={call.callId} data-testid="company-call" data-call-id={call.callId}>
                    <Td className="tabular-nums">
                      <LocalTime value={call.startTime} />
                    </Td>
                    <Td>{call.period ? `${call.period} ${call.year ?? ""}` : "—"}</Td>
                    <Td>
                      <CallLink call={call} symbol={call.symbol} />
                    </Td>
                    <Td numeric>{call.status === "live" ? "—" : formatClock(call.durationSeconds)}</Td>
                    <Td className="text-muted max-w-[36rem] truncate" title={first ?? undefined}>
                      {first ? (
                        <IntentLink href={callHref(call.callId)} className="hover:text-fg hover:underline">
                          {first}
                        </IntentLink>
                      ) : call.status === "completed" ? (
                        "The summary follows shortly."
                      ) : (
                        "—"
                      )}
                    </Td>
                  </Tr>
                );
              })}
            </tbody>
          </ScrollTable>
        )}
      </QueryPanel>
    </Section>
  );
}
