import type { NextConfig } from "next";
import { addCompileHints } from "./scripts/compile-hints";

const nextConfig: NextConfig = {
  // A separate dist dir lets parallel test runs and builds stay out of each other's way.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  // PGlite loads its WebAssembly and data files from beside its own module, which bundling would break; piscina
  // starts worker threads from files of its own (the push encryption worker, server/alerts/push-worker-pool.ts).
  serverExternalPackages: ["ws", "pino", "@electric-sql/pglite", "piscina"],
  // Types are checked once, by `npm run typecheck` (part of `npm test` and CI), over the whole tree including
  // tests; checking them again inside every build only doubles the slowest step of `npm start`.
  typescript: { ignoreBuildErrors: true },
  compiler: {
    // First-load chunks are compiled eagerly, off the main thread (scripts/compile-hints.ts).
    runAfterProductionCompile: async ({ distDir }) => {
      const changed = await addCompileHints(distDir);
      console.log(`   compile hints added to ${changed.length} first-load scripts`);
    },
  },
};

export default nextConfig;
