"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select } from "@/components/ui/field";
import { IntentLink } from "@/components/ui/intent-link";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useHydrated } from "@/components/ui/use-hydrated";
import { plainMessage } from "@/lib/plain-errors";
import { alertQueries, useCreateRule, useDeleteRule, useUpdateRule } from "@/lib/queries/alerts";
import { watchlistQueries } from "@/lib/queries/watchlists";
import { ruleLabel } from "@/lib/alerts/display";
import { alertRuleKinds } from "@/lib/alerts/rule-kinds";
import type { AlertRule, AlertRuleInput, AlertRuleKind, AlertRulePatch } from "@/lib/schemas/alerts";

const KIND_LABELS: Record<AlertRuleKind, string> = {
  keyword: "A word or phrase is said",
  "call-live": "A call goes live",
  results: "Results are released",
  sentiment: "Live sentiment crosses a threshold",
  guidance: "Guidance is given",
};

function scopeOf(rule: AlertRule, watchlistName: (id: string) => string): string {
  const scope = [
    rule.watchlistId ? `watchlist ${watchlistName(rule.watchlistId)}` : null,
    rule.tickers?.length ? rule.tickers.join(", ") : null,
  ]
    .filter(Boolean)
    .join(" + ");
  return [
    scope || "every call",
    rule.speakerRole === "operator" ? "said by the operator" : null,
    rule.speakerRole === "speaker" ? "not the operator" : null,
    rule.webhookUrl ? "webhook" : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * The user's alert rules: add one; each listed with what it listens for, where, how many alerts it fired (a link to
 * the inbox filtered to it), and Pause/Resume, Edit and Delete. Deleting asks first and says that the rule's alerts
 * stay in the inbox.
 */
export function AlertRules() {
  const rules = useQuery(alertQueries.rules());
  const lists = useQuery(watchlistQueries.list());
  // The counts come with the header bell's query, answered in the browser: shown once hydrated, so the first render
  // matches the server's HTML (components/ui/use-hydrated.ts).
  const hydrated = useHydrated();
  const bell = useQuery(alertQueries.inbox());
  const counts = (hydrated ? bell.data?.facets?.rules : undefined) ?? [];
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const watchlistName = (id: string) => lists.data?.data.find((l) => l.id === id)?.name ?? id;

  return (
    <div className="flex flex-col gap-3">
      <RuleForm />
      {rules.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : rules.error ? (
        <ErrorState
          title="Could not load your rules"
          message={plainMessage(rules.error)}
          onRetry={() => void rules.refetch()}
        />
      ) : rules.data.data.length === 0 ? (
        <EmptyState
          title="No rules yet"
          hint="A rule tells Callroom what to listen for on the calls you cannot attend."
        />
      ) : (
        <ul className="divide-line border-line divide-y rounded border" data-testid="alert-rules">
          {rules.data.data.map((rule) => {
            const label = ruleLabel(rule);
            const count = counts.find((c) => c.ruleId === rule.id);
            if (editing === rule.id)
              return (
                <li key={rule.id} className="p-2">
                  <RuleForm rule={rule} onDone={() => setEditing(null)} />
                </li>
              );
            return (
              <li
                key={rule.id}
                data-rule-id={rule.id}
                data-paused={rule.paused}
                className={cn(
                  "flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 text-[13px]",
                  rule.paused && "text-muted",
                )}
              >
                <span className="min-w-0 flex-1">
                  <span className={cn("font-medium", !rule.paused && "text-fg")}>{label}</span>
                  {rule.name ? (
                    <span className="text-muted"> · {KIND_LABELS[rule.kind].toLowerCase()}</span>
                  ) : null}
                  <span className="text-muted text-2xs block">{scopeOf(rule, watchlistName)}</span>
                </span>
                {rule.paused ? <Badge tone="warn">Paused</Badge> : null}
                <IntentLink
                  href={`/alerts?rule=${encodeURIComponent(rule.id)}`}
                  className="text-2xs text-muted hover:text-fg tabular-nums hover:underline"
                >
                  {count
                    ? `${count.total} alerts${count.unread > 0 ? ` · ${count.unread} unread` : ""}`
                    : "No alerts yet"}
                </IntentLink>
                {confirming === rule.id ? (
                  <span className="text-2xs flex items-center gap-1" role="group" aria-label="Confirm delete">
                    <span>Delete “{label}”? The alerts it fired stay in the inbox.</span>
                    <Button
                      variant="primary"
                      onClick={() => remove.mutate(rule.id, { onSettled: () => setConfirming(null) })}
                      disabled={remove.isPending}
                    >
                      Delete rule
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirming(null)}>
                      Keep
                    </Button>
                  </span>
                ) : (
                  <span className="flex items-center gap-1">
                    <Button
                      variant="ghost"
                      onClick={() => update.mutate({ id: rule.id, patch: { paused: !rule.paused } })}
                      disabled={update.isPending}
                      aria-label={`${rule.paused ? "Resume" : "Pause"} rule ${label}`}
                    >
                      {rule.paused ? "Resume" : "Pause"}
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => setEditing(rule.id)}
                      aria-label={`Edit rule ${label}`}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      onClick={() => setConfirming(rule.id)}
                      aria-label={`Delete rule ${label}`}
                    >
                      Delete
                    </Button>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {update.error || remove.error ? (
        <p role="alert" className="text-neg text-[13px]">
          {plainMessage(update.error ?? remove.error)}
        </p>
      ) : null}
    </div>
  );
}

/** A new rule, or (with `rule`) the same form to edit one: a PATCH of the whole rule as it will be. */
function RuleForm({ rule, onDone }: { rule?: AlertRule; onDone?: () => void }) {
  const lists = useQuery(watchlistQueries.list());
  const create = useCreateRule();
  const update = useUpdateRule();
  const mutation = rule ? update : create;
  const idPrefix = rule ? `rule-${rule.id}` : "rule";
  const [kind, setKind] = useState<AlertRuleKind>(rule?.kind ?? "keyword");
  const [name, setName] = useState(rule?.name ?? "");
  const [phrase, setPhrase] = useState(rule?.phrase ?? "");
  const [scope, setScope] = useState(
    rule?.watchlistId ? `wl:${rule.watchlistId}` : rule?.tickers?.length ? "tickers" : "all",
  );
  const [tickers, setTickers] = useState(rule?.tickers?.join(", ") ?? "");
  const [speakerRole, setSpeakerRole] = useState<string>(rule?.speakerRole ?? "");
  const [threshold, setThreshold] = useState(String(rule?.threshold ?? "-0.3"));
  const [webhookUrl, setWebhookUrl] = useState(rule?.webhookUrl ?? "");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: AlertRuleInput = { kind };
    if (name.trim()) input.name = name.trim();
    if (kind === "keyword") input.phrase = phrase;
    if (kind === "sentiment") input.threshold = Number(threshold);
    if (scope.startsWith("wl:")) input.watchlistId = scope.slice(3);
    const list = tickers
      .split(/[\s,]+/)
      .map((t) => t.trim())
      .filter(Boolean);
    if (scope === "tickers" && list.length > 0) input.tickers = list;
    if (speakerRole && (kind === "keyword" || kind === "guidance"))
      input.speakerRole = speakerRole as "operator" | "speaker";
    if (webhookUrl.trim()) input.webhookUrl = webhookUrl.trim();
    if (rule) {
      // The whole rule as it will be: what the form leaves empty is cleared.
      const patch: AlertRulePatch = {
        name: input.name ?? null,
        kind: input.kind,
        phrase: input.phrase ?? null,
        tickers: input.tickers ?? null,
        watchlistId: input.watchlistId ?? null,
        speakerRole: input.speakerRole ?? null,
        threshold: input.threshold ?? null,
        webhookUrl: input.webhookUrl ?? null,
      };
      update.mutate({ id: rule.id, patch }, { onSuccess: () => onDone?.() });
    } else {
      create.mutate(input, {
        onSuccess: () => {
          setPhrase("");
          setName("");
          setWebhookUrl("");
        },
      });
    }
  };

  return (
    <form
      onSubmit={submit}
      className={cn("flex flex-wrap items-end gap-2", !rule && "border-line rounded border p-3")}
      aria-label={rule ? `Edit rule ${ruleLabel(rule)}` : "New alert rule"}
    >
      <Field label="When" htmlFor={`${idPrefix}-kind`}>
        <Select
          id={`${idPrefix}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value as AlertRuleKind)}
        >
          {alertRuleKinds.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </Select>
      </Field>
      {kind === "keyword" ? (
        <Field label="Word or phrase" htmlFor={`${idPrefix}-phrase`}>
          <Input
            id={`${idPrefix}-phrase`}
            value={phrase}
            onChange={(e) => setPhrase(e.target.value)}
            placeholder="tariff"
            className="w-48"
          />
        </Field>
      ) : null}
      {kind === "sentiment" ? (
        <Field label="Threshold (−1 to 1)" htmlFor={`${idPrefix}-threshold`}>
          <Input
            id={`${idPrefix}-threshold`}
            type="number"
            step="0.05"
            min={-1}
            max={1}
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            className="w-24"
          />
        </Field>
      ) : null}
      <Field label="On" htmlFor={`${idPrefix}-scope`}>
        <Select id={`${idPrefix}-scope`} value={scope} onChange={(e) => setScope(e.target.value)}>
          <option value="all">Every call</option>
          {lists.data?.data.map((l) => (
            <option key={l.id} value={`wl:${l.id}`}>
              Watchlist: {l.name}
            </option>
          ))}
          <option value="tickers">These tickers…</option>
        </Select>
      </Field>
      {scope === "tickers" ? (
        <Field label="Tickers" htmlFor={`${idPrefix}-tickers`}>
          <Input
            id={`${idPrefix}-tickers`}
            value={tickers}
            onChange={(e) => setTickers(e.target.value)}
            placeholder="NWSC, ACME"
            className="w-40"
          />
        </Field>
      ) : null}
      {kind === "keyword" || kind === "guidance" ? (
        <Field label="Said by" htmlFor={`${idPrefix}-role`}>
          <Select
            id={`${idPrefix}-role`}
            value={speakerRole}
            onChange={(e) => setSpeakerRole(e.target.value)}
          >
            <option value="">Anyone</option>
            <option value="speaker">A speaker (not the operator)</option>
            <option value="operator">The operator</option>
          </Select>
        </Field>
      ) : null}
      <Field label="Name (optional)" htmlFor={`${idPrefix}-name`}>
        <Input
          id={`${idPrefix}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Tariff talk"
          className="w-36"
          maxLength={80}
        />
      </Field>
      <Field label="Webhook (optional, https)" htmlFor={`${idPrefix}-webhook`}>
        <Input
          id={`${idPrefix}-webhook`}
          value={webhookUrl}
          onChange={(e) => setWebhookUrl(e.target.value)}
          placeholder="https://hooks.slack.com/…"
          className="w-64"
        />
      </Field>
      <Button type="submit" variant="primary" disabled={mutation.isPending}>
        {rule ? "Save rule" : "Add rule"}
      </Button>
      {rule ? (
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      ) : null}
      {mutation.error ? (
        <p role="alert" className="text-neg w-full text-[13px]">
          {plainMessage(mutation.error)}
        </p>
      ) : null}
    </form>
  );
}
