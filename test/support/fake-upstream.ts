import "server-only";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A tiny market-data stand-in for client and route tests: each test sets `handler`; requests are recorded. */
export interface FakeUpstream {
  url: string;
  requests: { path: string; query: URLSearchParams; authorization: string | undefined }[];
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void;
  close(): Promise<void>;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const fake: FakeUpstream = {
    url: "",
    requests: [],
    handler: (_req, res) => json(res, 200, { earnings: [] }),
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    fake.requests.push({
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
    });
    fake.handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

export const noDataBody = {
  ok: false,
  errors: [{ code: "no_data_found", id: "not_found", value: "No data found for the specified parameters" }],
};
