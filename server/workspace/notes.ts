import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Note, NoteInput } from "@/lib/schemas/notes";
import type { SearchNotesResult, SearchQuery } from "@/lib/schemas/search";
import { searchNotes } from "../archive/note-search";
import type { Db } from "../db/database";
import { callNotes } from "../db/schema/workspace";
import { AppError, notFound } from "../http/errors";
import { toId } from "./watchlists";

/**
 * Notes in the call room, per user and call: pinned to a moment (`atMs`), optionally highlighting a sentence whose
 * text is kept as the note's quote (the transcript may be replaced by the enriched one later; the quote stays what
 * the analyst saw). Found by the archive search (`/api/search`, server/archive/note-search.ts), their owner's only.
 */

export const MAX_NOTES_PER_CALL = 1_000;

type Row = typeof callNotes.$inferSelect;

function toNote(row: Row): Note {
  return {
    id: String(row.id),
    callId: row.callId,
    text: row.text,
    atMs: row.atMs,
    sequence: row.sequence,
    quote: row.quote,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * Control characters out: Postgres refuses NUL in text, and the search's highlight markers are control characters
 * (server/archive/search.ts). Tabs and line breaks stay.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (value: string) => value.replace(CONTROL, "");

export class NotesRepository {
  constructor(private readonly db: Db) {}

  async list(userId: string, callId: string): Promise<Note[]> {
    const rows = await this.db
      .select()
      .from(callNotes)
      .where(and(eq(callNotes.userId, userId), eq(callNotes.callId, callId)))
      .orderBy(asc(callNotes.atMs), asc(callNotes.id));
    return rows.map(toNote);
  }

  async create(userId: string, callId: string, input: NoteInput): Promise<Note> {
    return this.db.transaction(async (tx) => {
      const [{ n }] = (await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(callNotes)
        .where(and(eq(callNotes.userId, userId), eq(callNotes.callId, callId)))) as [{ n: number }];
      if (n >= MAX_NOTES_PER_CALL)
        throw new AppError(400, "invalid_parameter", `at most ${MAX_NOTES_PER_CALL} notes per call`);
      const [row] = await tx
        .insert(callNotes)
        .values({
          userId,
          callId,
          text: clean(input.text),
          atMs: input.atMs,
          sequence: input.sequence ?? null,
          quote: input.quote === undefined ? null : clean(input.quote),
        })
        .returning();
      return toNote(row!);
    });
  }

  async remove(userId: string, callId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(callNotes)
      .where(and(eq(callNotes.id, toId(id)), eq(callNotes.userId, userId), eq(callNotes.callId, callId)))
      .returning({ id: callNotes.id });
    if (deleted.length === 0) throw notFound(`No note ${id}.`);
  }

  /** The user's notes matching an archive search (`/api/search`'s query and filters), best first. */
  search(userId: string, query: SearchQuery): Promise<SearchNotesResult> {
    return searchNotes(this.db, userId, query);
  }
}

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * A call's notes as Markdown: one section per note in call order, the moment as a link that opens the call room
 * there (`?t=` seconds), the highlighted sentence as a block quote.
 */
export function notesMarkdown(
  call: { callId: string; title: string; symbol: string },
  notes: readonly Note[],
  baseUrl: string,
): string {
  const lines = [`# Notes: ${call.title}`, "", `${call.symbol} · ${baseUrl}/calls/${call.callId}`, ""];
  for (const note of notes) {
    const link = `${baseUrl}/calls/${call.callId}?t=${Math.floor(note.atMs / 1000)}`;
    lines.push(`## [${clock(note.atMs)}](${link})`, "");
    if (note.quote) lines.push(...note.quote.split("\n").map((l) => `> ${l}`), "");
    if (note.text) lines.push(note.text, "");
  }
  if (notes.length === 0) lines.push("_No notes yet._", "");
  return lines.join("\n");
}
