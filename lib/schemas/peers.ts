import { z } from "zod";

/**
 * `GET /api/companies/{symbol}/peers` → `{ data: Peers, meta }`: the companies of the same industry (or, when it
 * has fewer than three others, the same industry group, then the same sector), as Morningstar's classification
 * that the service carries names them.
 */
export const peerSchema = z.object({ ticker: z.string(), name: z.string(), exchange: z.string().nullable() });
export type Peer = z.infer<typeof peerSchema>;

export const peersSchema = z.object({
  symbol: z.string(),
  /** Which level of the classification the peers share. */
  basis: z.enum(["industry", "group", "sector"]),
  /** The industry's (group's, sector's) name. */
  label: z.string(),
  peers: z.array(peerSchema),
});
export type Peers = z.infer<typeof peersSchema>;

export const PEERS_LIMIT = 8;
