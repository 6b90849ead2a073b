import { ApiRequestError } from "./fetch-json";

/**
 * Sends a change to one of our endpoints as JSON (the workspace API refuses anything else, see its CSRF note) and
 * returns the parsed answer; an error answer becomes `ApiRequestError` with our message, for the form to show.
 */
export async function sendJson<T = unknown>(
  method: "POST" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiRequestError(
      0,
      "network_error",
      "Could not reach the Callroom server. Check your connection.",
    );
  }
  if (response.status === 204) return null as T;
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiRequestError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return parsed as T;
}
