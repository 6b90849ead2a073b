"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { noteQueries } from "@/lib/queries/notes";

/** The sequences of the sentences the user highlighted in this call (notes that quote a sentence). */
export function useNoteHighlights(callId: string): ReadonlySet<number> {
  const { data } = useQuery(noteQueries.call(callId));
  return useMemo(
    () => new Set((data?.data ?? []).flatMap((n) => (n.sequence === null ? [] : [n.sequence]))),
    [data],
  );
}
