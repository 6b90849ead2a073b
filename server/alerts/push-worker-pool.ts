import "server-only";
import path from "node:path";
import { Piscina } from "piscina";
import type { EncryptedPush, EncryptRequest, PushEncrypt } from "./push";

/**
 * The worker thread that encrypts and signs Web Push messages (server/alerts/push-worker.mjs). One thread: the
 * machine's other cores belong to the live bus and the database, and one thread encrypts a few hundred messages a
 * second, more than the delivery queue lets out. Its own queue is bounded too; beyond it a message fails (and is
 * logged as a failed delivery) rather than piling up.
 */

export interface PushWorkerPool {
  encrypt: PushEncrypt;
  close(): Promise<void>;
}

export function defaultPushWorkerScript(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "server/alerts/push-worker.mjs");
}

export function createPushWorkerPool(filename = defaultPushWorkerScript()): PushWorkerPool {
  let pool: Piscina | null = null;
  return {
    encrypt: (request: EncryptRequest) => {
      pool ??= new Piscina({ filename, minThreads: 0, maxThreads: 1, maxQueue: 1_000, idleTimeout: 60_000 });
      return pool.run(request) as Promise<EncryptedPush>;
    },
    async close() {
      const open = pool;
      pool = null;
      await open?.close({ force: true });
    },
  };
}
