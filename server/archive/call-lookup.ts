import "server-only";
import type { Call } from "@/lib/schemas/calls";
import { AppError, notFound } from "../errors";
import { getCallWithLive, type LiveCallDeps } from "../live/live-call";
import type { Archive } from "./indexer";
import { isImportedCallId } from "./read-calls";

/**
 * A call wherever it lives: an imported call (`imp-…`) from the archive, anything else from the market-data service
 * merged with the live bus, and, when the service does not know the id, the archive's imported copy (the service's
 * own call JSON imported from another deployment keeps its id). One place, so `/api/calls/{id}`, the call room and
 * the insights agree.
 */
export async function getCallOrImported(
  archive: Pick<Archive, "importedCall">,
  live: LiveCallDeps,
  callId: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ call: Call; fetchedAt: string; stale: boolean }> {
  const fromArchive = async () => {
    const call = await archive.importedCall(callId);
    return call ? { call, fetchedAt: new Date().toISOString(), stale: false } : null;
  };
  if (isImportedCallId(callId)) {
    const found = await fromArchive();
    if (!found) throw notFound(`No call ${callId} in the archive.`);
    return found;
  }
  try {
    return await getCallWithLive(live, callId, options);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
    const found = await fromArchive().catch(() => null);
    if (found) return found;
    throw error;
  }
}
