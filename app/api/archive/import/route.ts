// POST /api/archive/import – transcripts read by `npm run import`, stored by the app that owns the database
import { timingSafeEqual } from "node:crypto";
import { IMPORT_BATCH_MAX_BYTES, importBatchSchema, type ImportResult } from "@/lib/schemas/archive-import";
import { AppError } from "@/server/errors";
import { readJsonBody } from "@/server/http/body";
import { privateJson } from "@/server/http/respond";
import type { Runtime } from "@/server/runtime";
import { requestUser, route } from "@/server/runtime/route";
import { assertSameOrigin } from "@/server/security/same-origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Who may import: `npm run import` on this machine, with the token from the PGlite folder's lock (reading the folder
 * is the proof: server/db/folder-owner.mjs), or a signed-in user from the app's own pages.
 */
async function authorize(request: Request, runtime: Runtime): Promise<void> {
  const header = request.headers.get("authorization");
  if (header?.startsWith("Bearer ")) {
    const token = (await runtime.database.get()).importToken;
    const given = Buffer.from(header.slice(7).trim());
    const expected = Buffer.from(token ?? "");
    if (token && given.length === expected.length && timingSafeEqual(given, expected)) return;
    throw new AppError("unauthenticated", "The import token does not match this server's database folder.");
  }
  // Signed in (or the open local dashboard), from the app's own pages.
  requestUser(request, runtime);
  assertSameOrigin(request, runtime.config.security.trustProxyHops);
}

export const POST = route({}, async ({ runtime, request }) => {
  await authorize(request, runtime);
  const parsed = importBatchSchema.safeParse(await readJsonBody(request, IMPORT_BATCH_MAX_BYTES));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "invalid_parameter",
      `The import batch is not valid: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const stored = await runtime.archive.importCalls(parsed.data.calls);
  const data: ImportResult[] = parsed.data.calls.map(({ call }, i) => ({
    callId: stored[i]!.callId,
    symbol: call.symbol.toUpperCase(),
    sentences: call.segments.length,
    stored: stored[i]!.stored,
  }));
  return privateJson({ data });
});
