"use client";

import { cn } from "@/components/ui/cn";

/**
 * Quarterly or annual: statements and per-period figures are read one kind at a time (a quarter next to a nine-month
 * year-to-date figure invites a wrong comparison). The service calls them 3M and 12M (or 1Y).
 */
export type PeriodKind = "quarterly" | "annual";

export const PERIOD_KIND_LABELS: Record<PeriodKind, string> = { quarterly: "Quarterly", annual: "Annual" };

/** The service's period value to ask for, per kind. */
export const PERIOD_KIND_QUERY: Record<PeriodKind, string> = { quarterly: "3M", annual: "12M" };

export function isPeriodOfKind(period: string | null | undefined, kind: PeriodKind): boolean {
  if (!period) return false;
  return kind === "quarterly" ? period === "3M" : period === "12M" || period === "1Y";
}

export function PeriodKindToggle({
  value,
  onChange,
  label = "Periods",
}: {
  value: PeriodKind;
  onChange: (kind: PeriodKind) => void;
  label?: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="border-line flex rounded border p-0.5">
      {(["quarterly", "annual"] as const).map((kind) => (
        <button
          key={kind}
          type="button"
          role="radio"
          aria-checked={value === kind}
          onClick={() => onChange(kind)}
          className={cn(
            "h-6 rounded px-2 text-[13px]",
            value === kind ? "bg-surface-2 font-semibold" : "text-muted hover:text-fg",
          )}
        >
          {PERIOD_KIND_LABELS[kind]}
        </button>
      ))}
    </div>
  );
}
