"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { LocalTime } from "@/components/ui/local-time";
import { ErrorState } from "@/components/ui/panel-state";
import { callQueries } from "@/lib/queries/calls";

/**
 * The company's transcripts brought in with `npm run import` (the archive's, not the market-data service's): shown
 * only when there are some. For a company the market-data service does not know, they are the page.
 */
export function CompanyImportedCalls({ symbol }: { symbol: string }) {
  const list = useQuery(
    callQueries.list({ tickers: [symbol], status: "all", source: "imported", page: 0, pageSize: 40 }),
  );
  if (list.isPending) return null;
  if (list.isError) {
    return (
      <ErrorState
        title="Could not load the imported transcripts"
        message={list.error.message}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const calls = list.data.data;
  if (calls.length === 0) return null;
  return (
    <section aria-labelledby="imported-calls-heading" id="imported-calls">
      <h2 id="imported-calls-heading" className="mb-2 text-sm font-semibold">
        Imported transcripts
      </h2>
      <ul className="border-line divide-line divide-y rounded border text-[13px]">
        {calls.map((call) => (
          <li key={call.callId} className="flex flex-wrap items-baseline gap-x-3 px-3 py-2">
            <IntentLink href={`/calls/${call.callId}`} className="font-medium hover:underline">
              {call.title}
            </IntentLink>
            <span className="text-muted">
              {/* A corpus transcript's date is estimated from its quarter (docs/storage.md): the quarter is the fact. */}
              {call.period && call.year ? (
                `${call.year}-${call.period}`
              ) : (
                <LocalTime value={call.startTime} />
              )}
            </span>
          </li>
        ))}
      </ul>
      {list.data.meta.total > calls.length ? (
        <p className="text-muted mt-1 text-[13px]">
          {calls.length} of {list.data.meta.total}:{" "}
          <IntentLink
            href={`/calls?source=imported&tickers=${encodeURIComponent(symbol)}`}
            className="underline"
          >
            all of them
          </IntentLink>
        </p>
      ) : null}
    </section>
  );
}
