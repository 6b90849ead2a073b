import { serviceClock, type Clock } from "../clock";
import { loadConfig } from "../config";

/**
 * The service's clock for a test that builds the universe or a call store in process instead of starting the service:
 * it starts at `EMBEDDED_NOW` when the suite runs with it (`npm run test:dates`), else it is the real clock. Such a
 * test reads "now" here, never from `Date.now()`, so it runs on the same date as the services the suite starts.
 */
export const testClock: Clock = serviceClock(loadConfig({ EMBEDDED_NOW: process.env.EMBEDDED_NOW }).nowMs);
