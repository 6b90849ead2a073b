import { cn } from "@/components/ui/cn";

/**
 * Says how far to trust the figures: the live bus's per-sentence estimate while live (and until enrichment), the
 * upstream's enriched scores after.
 */
export function SentimentSourceTag({ source }: { source: "live estimate" | "enriched" }) {
  return (
    <span
      data-testid="sentiment-source"
      title={
        source === "live estimate"
          ? "Scored sentence by sentence as it is spoken; replaced by the enriched scores after the call"
          : "Scores from the market-data service's enrichment"
      }
      className={cn(
        "text-2xs rounded border px-1 leading-4 whitespace-nowrap",
        source === "live estimate" ? "border-accent/40 text-accent" : "border-line text-muted",
      )}
    >
      {source}
    </span>
  );
}
