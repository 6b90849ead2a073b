import { MISSING, formatPercent, signOf } from "@/lib/format";
import { cn } from "@/components/ui/cn";

/**
 * A surprise: colour for meaning (beat green, miss red) plus an arrow and a sign, so it reads without colour too.
 * The accessible name says "beat" / "miss" in words.
 */
export function Surprise({ percent }: { percent: number | null }) {
  const sign = signOf(percent);
  if (sign === null) return <span className="text-muted">{MISSING}</span>;
  const word = sign > 0 ? "beat" : sign < 0 ? "miss" : "in line";
  return (
    <span
      className={cn("inline-flex items-center gap-1", sign > 0 && "text-pos", sign < 0 && "text-neg")}
      title={`${word[0]!.toUpperCase()}${word.slice(1)} by ${formatPercent(percent)}`}
    >
      <span aria-hidden>{sign > 0 ? "▲" : sign < 0 ? "▼" : "■"}</span>
      <span className="sr-only">{word} </span>
      {formatPercent(percent)}
    </span>
  );
}

/** An actual figure, coloured like its surprise. */
export function Actual({ text, surprise }: { text: string; surprise: number | null }) {
  const sign = signOf(surprise);
  return (
    <span
      className={cn(sign === 1 && "text-pos", sign === -1 && "text-neg", text === MISSING && "text-muted")}
    >
      {text}
    </span>
  );
}

/** Importance 0–5 as five pips; the number is in the accessible name and the tooltip. */
export function Importance({ value }: { value: number }) {
  const v = Math.max(0, Math.min(5, Math.round(value)));
  return (
    <span className="inline-flex items-center gap-0.5" title={`Importance ${v} of 5`}>
      <span className="sr-only">{`Importance ${v} of 5`}</span>
      {[1, 2, 3, 4, 5].map((n) => (
        <span
          key={n}
          aria-hidden
          className={cn("inline-block h-2.5 w-1 rounded-sm", n <= v ? "bg-fg/70" : "bg-line-strong/60")}
        />
      ))}
    </span>
  );
}

export function Confirmed({ value }: { value: boolean }) {
  return value ? (
    <span title="Date confirmed by the company">
      <span aria-hidden>✓</span>
      <span className="sr-only">Confirmed</span>
    </span>
  ) : (
    <span className="text-muted" title="Date not confirmed yet (estimated)">
      <span aria-hidden>?</span>
      <span className="sr-only">Unconfirmed</span>
    </span>
  );
}
