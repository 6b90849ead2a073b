import { IntentLink } from "@/components/ui/intent-link";
import { FollowButton } from "@/components/watchlists/follow-button";
import { MISSING } from "@/lib/format";
import type { DealParty, MaRow } from "@/lib/schemas/calendar";

/*
 * A module of its own (not inside ma-calendar.tsx) so the overview and company pages, which show deals, do not
 * load the whole M&A calendar (filters, URL state, virtual table) with it.
 */

export function Party({ party, follow = false }: { party: DealParty; follow?: boolean }) {
  const name = party.name ?? MISSING;
  if (!party.ticker) {
    return (
      <span className="flex min-w-0 items-baseline gap-1.5">
        <span className="text-2xs text-muted shrink-0">Private</span>
        <span className="truncate" title={name}>
          {name}
        </span>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-baseline gap-1.5">
      {follow ? <FollowButton symbol={party.ticker} compact className="self-center" /> : null}
      <IntentLink
        href={`/companies/${encodeURIComponent(party.ticker)}`}
        className="text-accent shrink-0 font-mono font-semibold hover:underline"
        onClick={(e) => e.stopPropagation()}
      >
        {party.ticker}
      </IntentLink>
      <span className="truncate" title={name}>
        {name}
      </span>
    </span>
  );
}

/**
 * "Acquirer → target" in one cell; screen readers hear "acquires". With `follow`, each listed party has a follow
 * star (private targets have no ticker to follow).
 */
export function DealParties({
  deal,
  follow = false,
}: {
  deal: Pick<MaRow, "acquirer" | "target">;
  follow?: boolean;
}) {
  return (
    <span className="grid grid-cols-[1fr_auto_1fr] items-baseline gap-2">
      <Party party={deal.acquirer} follow={follow} />
      <span className="text-muted">
        <span aria-hidden>→</span>
        <span className="sr-only">acquires</span>
      </span>
      <Party party={deal.target} follow={follow} />
    </span>
  );
}
