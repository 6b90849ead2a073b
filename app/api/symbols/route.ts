// GET /api/symbols?q= – company search by ticker prefix and name words: { data: SymbolMatch[] (≤ 20), meta }
import { marketRoute } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Served by the custom server's market router in production (docs/architecture.md "The market-data routes").
export const GET = marketRoute("symbols");
