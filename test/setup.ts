import { createLogger, installLogger } from "@/server/log";

// Tests log at warn unless they capture lines themselves (test/security/helpers.ts `captureLogs`).
installLogger(createLogger(undefined, "warn"));

// A runtime a test builds keeps its database in memory unless the test names a folder: two test files running at once
// must never open one PGlite folder (the default ./data/pglite), which the second would be refused.
process.env.CALLROOM_DATA_DIR ||= "memory://";
