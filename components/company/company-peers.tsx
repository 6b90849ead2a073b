"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { peerQueries } from "@/lib/queries/peers";
import { MAX_COMPARE } from "./compare-params";

const BASIS: Record<string, string> = { industry: "industry", group: "industry group", sector: "sector" };

/**
 * The suggested peer set, one click from the company: the companies of its industry (widened to the group or sector
 * when the industry is small), and a link that opens the comparison with all of them.
 */
export function CompanyPeers({ symbol }: { symbol: string }) {
  const peers = useQuery(peerQueries.of(symbol));
  if (peers.isPending)
    return (
      <p className="text-2xs text-muted h-5" aria-busy>
        Finding peers…
      </p>
    );
  if (peers.isError || !peers.data || peers.data.data.peers.length === 0) return null;
  const { peers: list, label, basis } = peers.data.data;
  const set = [symbol, ...list.map((p) => p.ticker)].slice(0, MAX_COMPARE);
  return (
    <p
      className="text-2xs text-muted flex flex-wrap items-baseline gap-x-2 gap-y-0.5"
      data-testid="company-peers"
    >
      <span>
        Peers ({BASIS[basis] ?? basis}: {label}):
      </span>
      {list.map((p) => (
        <IntentLink
          key={p.ticker}
          href={`/companies/${encodeURIComponent(p.ticker)}`}
          title={p.name}
          className="text-accent font-mono hover:underline"
        >
          {p.ticker}
        </IntentLink>
      ))}
      <IntentLink
        href={`/compare?symbols=${set.map(encodeURIComponent).join(",")}`}
        className="text-accent font-semibold hover:underline"
        data-testid="compare-peers"
      >
        Compare with peers →
      </IntentLink>
    </p>
  );
}
