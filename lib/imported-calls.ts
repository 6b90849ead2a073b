/**
 * Imported calls (`npm run import`, docs/storage.md): their ids start with `imp-` (`imp-aap-q1-2021`), so the server
 * knows to read them from the archive and the pages that they have no audio and no summary. Zod-free: browser code
 * uses it.
 */
export const IMPORTED_ID_PREFIX = "imp-";

export function isImportedCall(callId: string): boolean {
  return callId.startsWith(IMPORTED_ID_PREFIX);
}
