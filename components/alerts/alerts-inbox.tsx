"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useMemo, useRef } from "react";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, Select } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatCount } from "@/lib/format";
import { alertQueries, useMarkAllRead, useMarkRead, useMute } from "@/lib/queries/alerts";
import { alertDetailsLine, alertPath, ruleLabel } from "@/lib/alerts/display";
import type { Alert } from "@/lib/schemas/alerts";
import { callHref } from "@/lib/call-links";
import { AlertQuote, AlertRuleTags } from "./alert-quote";
import { AlertMutes } from "./alert-mutes";
import { groupByCall, type AlertGroup } from "./group-alerts";
import { inboxFilter, inboxParams } from "./inbox-params";

/**
 * The alerts inbox, built for earnings season: each alert says which rules fired and marks the words they matched;
 * alerts are grouped by call (newest call activity first) with the call's triage at hand (mute the call or the
 * company, mark the call read); filters by ticker, rule and unread live in the URL. Every row is a real link to its
 * moment, so a middle-click or Ctrl+click opens it in a new tab (and marks it read); j/k move through rows, Enter
 * opens. The unread count is the bell's own (lib/queries/alerts.ts).
 */
export function AlertsInbox() {
  const [params, setParams] = useQueryStates(inboxParams, { history: "replace", clearOnDefault: true });
  const filter = useMemo(
    () => inboxFilter({ ticker: params.ticker, rule: params.rule, unread: params.unread }),
    [params.ticker, params.rule, params.unread],
  );
  const inbox = useInfiniteQuery(alertQueries.inboxPages(filter));
  const bell = useQuery(alertQueries.inbox());
  const rules = useQuery(alertQueries.rules());
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const mute = useMute();

  const alerts = useMemo(() => inbox.data?.pages.flatMap((page) => page.data) ?? [], [inbox.data]);
  const facets = inbox.data?.pages[0]?.facets;
  const groups = useMemo(() => (params.flat ? null : groupByCall(alerts)), [alerts, params.flat]);
  const ordered = useMemo(() => (groups ? groups.flatMap((g) => g.alerts) : alerts), [groups, alerts]);
  // The bell's count is the header's query, fetched on the client: the server's HTML and the (later) hydration show
  // the inbox page's own count, which the server rendered too.
  const hydrated = useHydrated();
  const unread = (hydrated ? bell.data?.unread : undefined) ?? inbox.data?.pages[0]?.unread ?? 0;

  const rowRefs = useRef(new Map<string, HTMLAnchorElement>());
  const { activeIndex } = useRowNavigation(ordered.length, {
    onMove: (index) => {
      const id = ordered[index]?.id;
      if (id) rowRefs.current.get(id)?.focus();
    },
    onOpen: (index) => rowRefs.current.get(ordered[index]?.id ?? "")?.click(),
  });

  const ruleName = (id: string) => {
    const rule = rules.data?.data.find((r) => r.id === id);
    if (rule) return ruleLabel(rule);
    return alerts.flatMap((a) => a.rules).find((r) => r.ruleId === id)?.label ?? `Deleted rule ${id}`;
  };
  const tickerOptions = facets?.symbols ?? [];
  const ruleOptions = facets?.rules ?? [];
  const isFiltered = Boolean(params.ticker || params.rule || params.unread);

  const onOpen = (alert: Alert) => {
    if (!alert.read) markRead.mutate(alert.id);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2" role="group" aria-label="Filter the inbox">
        <Field label="Ticker" htmlFor="inbox-ticker">
          <Select
            id="inbox-ticker"
            value={params.ticker ?? ""}
            onChange={(e) => void setParams({ ticker: e.target.value || null })}
          >
            <option value="">All tickers</option>
            {params.ticker && !tickerOptions.some((t) => t.symbol === params.ticker) ? (
              <option value={params.ticker}>{params.ticker}</option>
            ) : null}
            {tickerOptions.map((t) => (
              <option key={t.symbol} value={t.symbol}>
                {t.symbol} ({t.unread > 0 ? `${t.unread} unread of ${t.total}` : t.total})
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Rule" htmlFor="inbox-rule">
          <Select
            id="inbox-rule"
            value={params.rule ?? ""}
            onChange={(e) => void setParams({ rule: e.target.value || null })}
            className="max-w-64"
          >
            <option value="">All rules</option>
            {params.rule && !ruleOptions.some((r) => r.ruleId === params.rule) ? (
              <option value={params.rule}>{ruleName(params.rule)}</option>
            ) : null}
            {ruleOptions.map((r) => (
              <option key={r.ruleId} value={r.ruleId}>
                {ruleName(r.ruleId)} ({r.unread > 0 ? `${r.unread} unread of ${r.total}` : r.total})
              </option>
            ))}
          </Select>
        </Field>
        <label className="flex h-7 items-center gap-1.5 text-[13px]">
          <input
            type="checkbox"
            checked={params.unread}
            onChange={(e) => void setParams({ unread: e.target.checked })}
          />
          Unread only
        </label>
        <label className="flex h-7 items-center gap-1.5 text-[13px]">
          <input
            type="checkbox"
            checked={!params.flat}
            onChange={(e) => void setParams({ flat: !e.target.checked })}
          />
          Group by call
        </label>
        {isFiltered ? (
          <Button variant="ghost" onClick={() => void setParams({ ticker: null, rule: null, unread: false })}>
            Clear filters
          </Button>
        ) : null}
        <div className="text-2xs text-muted ml-auto flex flex-wrap items-center gap-3">
          <span data-testid="alerts-inbox-unread" className="tabular-nums">
            {unread === 0 ? "All read" : `${unread.toLocaleString("en-US")} unread`}
          </span>
          <Button
            onClick={() => markAll.mutate(isFiltered ? undefined : alerts[0]?.id)}
            disabled={unread === 0 || markAll.isPending || isFiltered}
            title={isFiltered ? "Clear the filters to mark everything read" : undefined}
          >
            Mark all read
          </Button>
        </div>
        {markAll.error ? (
          <span role="alert" className="text-neg text-2xs w-full">
            Could not mark them read: {markAll.error.message}
          </span>
        ) : null}
      </div>

      <AlertMutes />

      {inbox.isPending ? (
        <div className="flex flex-col gap-1" role="status" aria-label="Loading your alerts">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-8 w-full" />
          ))}
        </div>
      ) : inbox.error ? (
        <ErrorState
          title="Could not load your alerts"
          message={inbox.error.message}
          onRetry={() => void inbox.refetch()}
        />
      ) : alerts.length === 0 ? (
        isFiltered ? (
          <EmptyState title="No alerts match these filters" hint="Clear the filters to see every alert." />
        ) : (
          <EmptyState
            title="No alerts yet"
            hint="Add a rule below; alerts appear here as calls say what you listen for."
          />
        )
      ) : (
        <div className="border-line rounded border" data-testid="alerts-inbox">
          {(groups ?? [{ key: "all", callId: null, symbol: null, alerts, unread: 0 } as AlertGroup]).map(
            (group) => (
              <section
                key={group.key}
                aria-label={group.symbol ? `${group.symbol} alerts` : "Alerts"}
                data-testid={groups ? "alert-group" : undefined}
                data-call-id={group.callId ?? undefined}
                className="border-line border-b last:border-b-0"
              >
                {groups ? (
                  <GroupHeader
                    group={group}
                    onMute={(scope) =>
                      mute.mutate(
                        scope === "call"
                          ? { scope: "call", callId: group.callId!, symbol: group.symbol ?? undefined }
                          : {
                              scope: "company",
                              symbol: group.symbol!,
                              callId: group.callId ?? undefined,
                            },
                      )
                    }
                    onMarkRead={() => group.callId && markAll.mutate({ callId: group.callId })}
                    isBusy={mute.isPending || markAll.isPending}
                  />
                ) : null}
                <ul className="divide-line divide-y">
                  {group.alerts.map((alert) => (
                    <li key={alert.id} data-alert-id={alert.id} data-read={alert.read}>
                      <AlertRow
                        alert={alert}
                        showSymbol={!groups}
                        isActive={ordered[activeIndex]?.id === alert.id}
                        onOpen={() => onOpen(alert)}
                        ref={(node) => {
                          if (node) rowRefs.current.set(alert.id, node);
                          else rowRefs.current.delete(alert.id);
                        }}
                      />
                    </li>
                  ))}
                </ul>
              </section>
            ),
          )}
        </div>
      )}
      {mute.error ? (
        <p role="alert" className="text-neg text-2xs">
          Could not mute: {mute.error.message}
        </p>
      ) : null}
      {inbox.hasNextPage ? (
        <Button
          className="self-start"
          onClick={() => void inbox.fetchNextPage()}
          disabled={inbox.isFetchingNextPage}
        >
          {inbox.isFetchingNextPage ? "Loading older alerts…" : "Show older alerts"}
        </Button>
      ) : null}
      {inbox.isFetchNextPageError ? (
        <p role="alert" className="text-neg text-2xs">
          Could not load older alerts. Try again.
        </p>
      ) : null}
    </div>
  );
}

function GroupHeader({
  group,
  onMute,
  onMarkRead,
  isBusy,
}: {
  group: AlertGroup;
  onMute: (scope: "call" | "company") => void;
  onMarkRead: () => void;
  isBusy: boolean;
}) {
  return (
    <div className="bg-surface text-2xs flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1">
      <span className="text-fg text-[13px] font-semibold">{group.symbol}</span>
      {group.callId ? (
        <a href={callHref(group.callId)} className="text-accent hover:underline">
          Open the call
        </a>
      ) : (
        <span className="text-muted">Results</span>
      )}
      <span className="text-muted tabular-nums">
        {formatCount(group.alerts.length, "alert")}
        {group.unread > 0 ? ` · ${group.unread} unread` : ""}
      </span>
      <span className="ml-auto flex flex-wrap items-center gap-1">
        {group.callId && group.unread > 0 ? (
          <Button variant="ghost" onClick={onMarkRead} disabled={isBusy}>
            Mark read
          </Button>
        ) : null}
        {group.callId ? (
          <Button
            variant="ghost"
            onClick={() => onMute("call")}
            disabled={isBusy}
            title="Silence the rest of this call; its alerts are marked read"
          >
            Mute call
          </Button>
        ) : null}
        {group.symbol ? (
          <Button
            variant="ghost"
            onClick={() => onMute("company")}
            disabled={isBusy}
            title={`Silence ${group.symbol} until its call ends (12 hours at most)`}
          >
            Mute {group.symbol}
          </Button>
        ) : null}
      </span>
    </div>
  );
}

function AlertRow({
  alert,
  showSymbol,
  isActive,
  onOpen,
  ref,
}: {
  alert: Alert;
  showSymbol: boolean;
  isActive: boolean;
  onOpen: () => void;
  ref: (node: HTMLAnchorElement | null) => void;
}) {
  const details = alertDetailsLine(alert);
  return (
    <a
      ref={ref}
      href={alertPath(alert)}
      data-testid="alert-row"
      onClick={onOpen}
      // A middle click opens a new tab without a click event.
      onAuxClick={(e) => {
        if (e.button === 1) onOpen();
      }}
      className={cn(
        "hover:bg-surface grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-3 px-3 py-1.5 text-left sm:grid-cols-[4.5rem_minmax(8rem,14rem)_minmax(0,1fr)]",
        alert.read ? "text-muted" : "",
        isActive && "bg-accent-soft",
      )}
    >
      <span className="text-2xs pt-0.5 tabular-nums">
        {showSymbol ? <span className="text-fg mr-1 font-semibold">{alert.symbol}</span> : null}
        <LocalTime value={alert.firedAt} format="since" />
      </span>
      <AlertRuleTags alert={alert} className="text-2xs min-w-0 pt-0.5 max-sm:col-start-2" />
      <span className="min-w-0 max-sm:col-span-2">
        <span className={cn("line-clamp-2 text-[13px] leading-5", alert.read ? "" : "text-fg")}>
          {alert.read ? null : (
            <span aria-hidden className="bg-accent mr-1.5 inline-block size-1.5 rounded-full align-middle" />
          )}
          <AlertQuote alert={alert} />
        </span>
        {details ? (
          <span className="text-2xs text-muted block" data-testid="alert-detail">
            {details}
          </span>
        ) : null}
        {alert.read ? null : <span className="sr-only"> (unread)</span>}
      </span>
    </a>
  );
}
