import { queryOptions } from "@tanstack/react-query";
import { ApiRequestError, fetchJson } from "./fetch-json";

/** `GET /api/session`: whether sign-in applies on this server, and who is signed in (null when nobody). */
export interface SessionState {
  authEnabled: boolean;
  username: string | null;
}

export const sessionQueries = {
  all: () => ["session"] as const,
  current: () =>
    queryOptions({
      queryKey: sessionQueries.all(),
      queryFn: async ({ signal }) => (await fetchJson<{ data: SessionState }>("/api/session", signal)).data,
      // Who is signed in changes only through this tab's own sign-out (or the cookie expiring: the proxy then
      // sends the reader to /login anyway).
      staleTime: 5 * 60_000,
      retry: false,
    }),
};

/** Ends the session (the server clears the HttpOnly cookie); throws when the server refuses. */
export async function signOut(): Promise<void> {
  const response = await fetch("/api/session", { method: "DELETE", headers: { accept: "application/json" } });
  if (!response.ok) {
    throw new ApiRequestError(response.status, "sign_out_failed", "Could not sign out. Try again.");
  }
}
