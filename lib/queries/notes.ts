import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Note, NoteInput } from "@/lib/schemas/notes";
import { fetchJson } from "./fetch-json";
import { sendJson } from "./send-json";

export const noteQueries = {
  all: () => ["notes"] as const,
  call: (callId: string) =>
    queryOptions({
      queryKey: [...noteQueries.all(), callId] as const,
      queryFn: ({ signal }) =>
        fetchJson<{ data: Note[] }>(`/api/calls/${encodeURIComponent(callId)}/notes`, signal),
    }),
};

export function useAddNote(callId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NoteInput) =>
      sendJson<{ data: Note }>("POST", `/api/calls/${encodeURIComponent(callId)}/notes`, input),
    onSettled: () => client.invalidateQueries({ queryKey: noteQueries.call(callId).queryKey }),
  });
}

export function useDeleteNote(callId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      sendJson<null>("DELETE", `/api/calls/${encodeURIComponent(callId)}/notes/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: noteQueries.call(callId).queryKey }),
  });
}
