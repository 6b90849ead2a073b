// GET /api/summaries – summaries of enriched calls, newest first
import { marketRoute } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Served by the custom server's market router in production (docs/architecture.md "The market-data routes").
export const GET = marketRoute("summaries");
