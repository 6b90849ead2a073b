import "server-only";
import { AppError } from "../errors";

/** Reads a JSON body (at most `maxBytes`); anything else is refused before any validation. */
export async function readJsonBody(request: Request, maxBytes = 64_000): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes)
    throw new AppError("payload_too_large", `The body must be at most ${maxBytes} bytes.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_parameter", "The body is not valid JSON.");
  }
}
