"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { EmptyState } from "@/components/ui/panel-state";
import { alertQueries, useCreateRule, useDeleteRule } from "@/lib/queries/alerts";
import { watchlistQueries } from "@/lib/queries/watchlists";
import {
  alertRuleKinds,
  type AlertRule,
  type AlertRuleInput,
  type AlertRuleKind,
} from "@/lib/schemas/alerts";

const KIND_LABELS: Record<AlertRuleKind, string> = {
  keyword: "A word or phrase is said",
  "call-live": "A call goes live",
  results: "Results are released",
  sentiment: "Live sentiment crosses a threshold",
  guidance: "Guidance is mentioned",
};

function describe(rule: AlertRule, watchlistName: (id: string) => string): string {
  const what =
    rule.kind === "keyword"
      ? `“${rule.phrase}”`
      : rule.kind === "sentiment"
        ? `sentiment ${rule.threshold! >= 0 ? "≥" : "≤"} ${rule.threshold!.toFixed(2)}`
        : KIND_LABELS[rule.kind].toLowerCase();
  const scope = [
    rule.watchlistId ? `watchlist ${watchlistName(rule.watchlistId)}` : null,
    rule.tickers?.length ? rule.tickers.join(", ") : null,
  ]
    .filter(Boolean)
    .join(" + ");
  return `${what} · ${scope || "every call"}${rule.speakerRole ? ` · ${rule.speakerRole}` : ""}${rule.webhookUrl ? " · webhook" : ""}`;
}

export function AlertRules() {
  const rules = useQuery(alertQueries.rules());
  const lists = useQuery(watchlistQueries.list());
  const remove = useDeleteRule();
  const watchlistName = (id: string) => lists.data?.data.find((l) => l.id === id)?.name ?? id;
  return (
    <div className="flex flex-col gap-3">
      <RuleForm />
      {rules.data && rules.data.data.length === 0 ? (
        <EmptyState
          title="No rules yet"
          hint="A rule tells Callroom what to listen for on the calls you cannot attend."
        />
      ) : (
        <ul className="divide-line border-line divide-y rounded border" data-testid="alert-rules">
          {rules.data?.data.map((rule) => (
            <li key={rule.id} className="flex items-center gap-2 px-3 py-1.5 text-[13px]">
              <span className="min-w-0 flex-1 truncate">{describe(rule, watchlistName)}</span>
              <Button
                variant="ghost"
                onClick={() => remove.mutate(rule.id)}
                aria-label={`Delete rule ${describe(rule, watchlistName)}`}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RuleForm() {
  const lists = useQuery(watchlistQueries.list());
  const create = useCreateRule();
  const [kind, setKind] = useState<AlertRuleKind>("keyword");
  const [phrase, setPhrase] = useState("");
  const [scope, setScope] = useState("all");
  const [tickers, setTickers] = useState("");
  const [speakerRole, setSpeakerRole] = useState("");
  const [threshold, setThreshold] = useState("-0.3");
  const [webhookUrl, setWebhookUrl] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: AlertRuleInput = { kind };
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
    create.mutate(input, {
      onSuccess: () => {
        setPhrase("");
        setWebhookUrl("");
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      className="border-line flex flex-wrap items-end gap-2 rounded border p-3"
      aria-label="New alert rule"
    >
      <Field label="When" htmlFor="rule-kind">
        <Select id="rule-kind" value={kind} onChange={(e) => setKind(e.target.value as AlertRuleKind)}>
          {alertRuleKinds.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </Select>
      </Field>
      {kind === "keyword" ? (
        <Field label="Word or phrase" htmlFor="rule-phrase">
          <Input
            id="rule-phrase"
            value={phrase}
            onChange={(e) => setPhrase(e.target.value)}
            placeholder="tariff"
            className="w-48"
          />
        </Field>
      ) : null}
      {kind === "sentiment" ? (
        <Field label="Threshold (−1 to 1)" htmlFor="rule-threshold">
          <Input
            id="rule-threshold"
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
      <Field label="On" htmlFor="rule-scope">
        <Select id="rule-scope" value={scope} onChange={(e) => setScope(e.target.value)}>
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
        <Field label="Tickers" htmlFor="rule-tickers">
          <Input
            id="rule-tickers"
            value={tickers}
            onChange={(e) => setTickers(e.target.value)}
            placeholder="NWSC, ACME"
            className="w-40"
          />
        </Field>
      ) : null}
      {kind === "keyword" || kind === "guidance" ? (
        <Field label="Said by" htmlFor="rule-role">
          <Select id="rule-role" value={speakerRole} onChange={(e) => setSpeakerRole(e.target.value)}>
            <option value="">Anyone</option>
            <option value="speaker">A speaker (not the operator)</option>
            <option value="operator">The operator</option>
          </Select>
        </Field>
      ) : null}
      <Field label="Webhook (optional, https)" htmlFor="rule-webhook">
        <Input
          id="rule-webhook"
          value={webhookUrl}
          onChange={(e) => setWebhookUrl(e.target.value)}
          placeholder="https://hooks.slack.com/…"
          className="w-64"
        />
      </Field>
      <Button type="submit" variant="primary" disabled={create.isPending}>
        Add rule
      </Button>
      {create.error ? (
        <p role="alert" className="text-neg w-full text-[13px]">
          {create.error.message}
        </p>
      ) : null}
    </form>
  );
}
