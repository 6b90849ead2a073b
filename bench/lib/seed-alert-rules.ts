/**
 * Prepares a PGlite data folder for the alert-toast benchmark before the app opens it: the schema (the app's own
 * migrations, through the app's own database module) and 1,000 users × 10 alert rules over the embedded universe's
 * tickers. A child process of the benchmark, since the server's modules only load under the `react-server`
 * condition and PGlite takes its folder for itself:
 *
 *   node --import tsx --conditions=react-server bench/lib/seed-alert-rules.ts <dataDir> [users] [rulesPerUser]
 */
import { DEFAULT_SEED } from "../../embedded/config";
import { buildUniverse } from "../../embedded/universe/index";
import { createDatabase } from "../../server/db/database";
import { alertRules } from "../../server/db/schema/workspace";
import { generateRules, seededRandom } from "./alert-rules";

const [dataDir, usersArg, perUserArg] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: seed-alert-rules.ts <dataDir> [users] [rulesPerUser]");
const users = Number(usersArg ?? 1_000);
const rulesPerUser = Number(perUserArg ?? 10);

const quiet = { info() {}, warn: console.warn, error: console.error };
const database = await createDatabase({ dataDir, logger: quiet });
const tickers = buildUniverse(DEFAULT_SEED).companies.map((c) => c.symbol);
const rows = generateRules({
  users,
  rulesPerUser,
  tickers,
  rand: seededRandom(17),
  userId: (u) => `bench-${u}`,
});
for (let i = 0; i < rows.length; i += 1_000)
  await database.db.insert(alertRules).values(rows.slice(i, i + 1_000));
await database.close();
console.log(`seeded ${rows.length} alert rules for ${users} users in ${dataDir}`);
