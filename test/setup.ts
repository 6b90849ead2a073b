import { createLogger, installLogger } from "@/server/log";

// Tests log at warn unless they capture lines themselves (test/security/helpers.ts `captureLogs`).
installLogger(createLogger(undefined, "warn"));
