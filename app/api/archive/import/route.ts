// POST /api/archive/import – transcripts read by `npm run import`, stored by the app that owns the database
import { timingSafeEqual } from "node:crypto";
import { IMPORT_BATCH_MAX_BYTES, importBatchSchema, type ImportResult } from "@/lib/schemas/archive-import";
import { AppError, toErrorResponse } from "@/server/http/errors";
import { jsonResponse } from "@/server/http/respond";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";
import { assertSameOrigin, readJsonBody, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Who may import: `npm run import` on this machine, with the token from the PGlite folder's lock (reading the folder
 * is the proof: server/db/folder-owner.mjs), or a signed-in user from the app's own pages.
 */
async function authorize(request: Request): Promise<void> {
  const header = request.headers.get("authorization");
  if (header?.startsWith("Bearer ")) {
    const token = (await getRuntime().database.get()).importToken;
    const given = Buffer.from(header.slice(7).trim());
    const expected = Buffer.from(token ?? "");
    if (token && given.length === expected.length && timingSafeEqual(given, expected)) return;
    throw new AppError(
      401,
      "unauthenticated",
      "The import token does not match this server's database folder.",
    );
  }
  // Signed in (or the open local dashboard), from the app's own pages.
  requestUser(request);
  assertSameOrigin(request);
}

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    await authorize(request);
    const parsed = importBatchSchema.safeParse(await readJsonBody(request, IMPORT_BATCH_MAX_BYTES));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(
        400,
        "invalid_parameter",
        `The import batch is not valid: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
      );
    }
    const stored = await getRuntime().archive.importCalls(parsed.data.calls);
    const data: ImportResult[] = parsed.data.calls.map(({ call }, i) => ({
      callId: stored[i]!.callId,
      symbol: call.symbol.toUpperCase(),
      sentences: call.segments.length,
      stored: stored[i]!.stored,
    }));
    return jsonResponse({ data }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
