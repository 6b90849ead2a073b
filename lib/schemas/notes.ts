import { z } from "zod";

/**
 * Notes of `/api/calls/{callId}/notes`: a note is pinned to a moment of the call (`atMs`, from its start) and may
 * highlight one sentence (`sequence`), whose text it then quotes.
 */

export const NOTE_MAX = 5_000;

export const noteInputSchema = z
  .strictObject({
    text: z.string().trim().max(NOTE_MAX, `text must be at most ${NOTE_MAX} characters`).default(""),
    atMs: z
      .number()
      .int("atMs must be whole milliseconds")
      .min(0, "atMs must not be negative")
      .max(86_400_000, "atMs must be within a day"),
    sequence: z.number().int().min(0, "sequence must not be negative").optional(),
    quote: z.string().max(NOTE_MAX, `quote must be at most ${NOTE_MAX} characters`).optional(),
  })
  .refine((n) => n.text.length > 0 || n.sequence !== undefined, {
    message: "text must not be empty unless the note highlights a sentence",
    path: ["text"],
  });
export type NoteInput = z.infer<typeof noteInputSchema>;

export const noteSchema = z.object({
  id: z.string(),
  callId: z.string(),
  text: z.string(),
  atMs: z.number().int(),
  sequence: z.number().int().nullable(),
  quote: z.string().nullable(),
  createdAt: z.string(),
});
export type Note = z.infer<typeof noteSchema>;

export const noteListSchema = z.object({ data: z.array(noteSchema) });
