import "server-only";
import { rowId } from "../db/row-id";

/** An id from a route's path, checked as a row id (404 for anything else), named for its message. */
export function pathId(raw: string, what: string): string {
  rowId(raw, what);
  return raw;
}
