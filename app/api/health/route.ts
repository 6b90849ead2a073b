// GET /api/health – is our server up, and can it reach the market-data service? (shape: lib/schemas/health.ts)
import { archiveHealth } from "@/server/archive/observe";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { getHealth } from "@/server/upstream/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async ({ runtime, signal }) => {
  const health = await getHealth(
    {
      mode: runtime.config.upstream.mode,
      upstream: runtime.upstream,
      streamStatus: runtime.live.streamStatus,
    },
    { signal },
  );
  // The archive's figures from memory: health never waits on the database (docs/scale.md).
  return privateJson({ ...health, archive: archiveHealth(runtime.archive) });
});
