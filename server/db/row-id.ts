import "server-only";
import { notFound } from "../errors";

/** A row id from a path (the database's ids are decimal digits): anything else cannot name a row (404). */
export function rowId(id: string, what = "such item"): number {
  if (!/^\d{1,15}$/.test(id)) throw notFound(`No ${what} ${id.slice(0, 40)}.`);
  return Number(id);
}
