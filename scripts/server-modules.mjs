// Lets the launcher (plain Node) import the server's own TypeScript modules, so it checks the configuration with the
// reader the server uses (server/config.ts) instead of a copy of its rules: tsx compiles them, and `server-only`
// resolves as it does inside the server (under the `react-server` condition), since this is server code too.
import { register } from "node:module";
import { tsImport } from "tsx/esm/api";

const SERVER_ONLY_HOOK = `
export async function resolve(specifier, context, next) {
  if (specifier !== "server-only") return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, "react-server"] });
}`;

register(`data:text/javascript,${encodeURIComponent(SERVER_ONLY_HOOK)}`);

/** Imports a module of this repository by its path from the root (`server/config.ts`). */
export function importServerModule(path) {
  return tsImport(new URL(`../${path}`, import.meta.url).href, import.meta.url);
}
