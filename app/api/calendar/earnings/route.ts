// GET /api/calendar/earnings – one page of the earnings calendar: { data: EarningsRow[], meta: PageMeta }
import { marketRoute } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Served by the custom server's market router in production (docs/architecture.md "The market-data routes").
export const GET = marketRoute("earnings");
