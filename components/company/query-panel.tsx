"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { isApiError } from "@/lib/queries/fetch-json";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { envelopeMeta } from "@/lib/queries/stale";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * The four states of a data panel in one place: loading (a skeleton of the panel's height), error (what failed +
 * retry), empty (why), and content. A 404 from our API means "the service has none of this for the company": an
 * empty state, not an error.
 *
 * Stale data (the server answered from its cache during an upstream outage, or our own refetch failed while older
 * data is on screen) is shown with a note saying what and since when; the query keeps retrying (providers.tsx) and
 * the note goes away with the first fresh answer.
 */
export function QueryPanel<T>({
  result,
  what,
  isEmpty,
  emptyHint,
  emptyTitle,
  skeletonHeight = 160,
  children,
}: {
  result: UseQueryResult<T>;
  what: string;
  isEmpty?: (data: T) => boolean;
  emptyHint?: string;
  emptyTitle?: string;
  skeletonHeight?: number;
  children: (data: T) => ReactNode;
}) {
  if (result.isPending) {
    return (
      <div
        role="status"
        aria-label={`Loading ${what}`}
        aria-busy
        style={{ height: skeletonHeight }}
        className="flex flex-col gap-2"
      >
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="w-full flex-1" />
      </div>
    );
  }
  const meta = envelopeMeta(result.data);
  if (result.isError && (result.data === undefined || meta === null)) {
    if (isApiError(result.error) && result.error.status === 404) {
      return (
        <EmptyState
          title={`No ${what} available.`}
          hint={emptyHint ?? "The market-data service has none for this company."}
        />
      );
    }
    return (
      <ErrorState
        title={`Could not load ${what}.`}
        message={result.error.message}
        onRetry={() => void result.refetch()}
      />
    );
  }
  const data = result.data as T;
  const note =
    meta && (meta.stale || result.isError) ? (
      <StaleNote fetchedAt={meta.fetchedAt} what={what} className="mb-2" />
    ) : null;
  if (isEmpty?.(data)) {
    return (
      <>
        {note}
        <EmptyState
          title={emptyTitle ?? `No ${what} available.`}
          hint={emptyHint ?? "The market-data service has none for this company."}
        />
      </>
    );
  }
  return (
    <>
      {note}
      {children(data)}
    </>
  );
}
