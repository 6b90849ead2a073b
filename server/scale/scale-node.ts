import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import type { RelayLogger } from "../live/call-state";
import type { StreamState } from "../upstream/stream/socket";
import { LeaderElection, type Role } from "./leader";
import { createRedis } from "./redis";
import { RedisHub, STREAM_KEY, type PublishedCallState } from "./redis-hub";

/**
 * One app instance in a Redis deployment: its hub (following the shared stream) and its candidacy for the upstream
 * socket. Only the leader runs a relay; on election it resumes every call from what was published (the per-call
 * hash) and lets the relay fill the gap from REST before anything new is published, so a failover neither loses
 * nor repeats a sentence.
 */

/** The part of a relay the node drives (kept structural so relay.ts and this module do not import each other). */
export interface LeaderRelay {
  calls: {
    seed(state: PublishedCallState): void;
    onReconnected(downSinceMs?: number): void;
  };
  socket: { start(): void };
  state(): StreamState;
  stop(): void;
}

export interface ScaleNode {
  hub: RedisHub;
  instanceId: string;
  role(): Role;
  /** Starts campaigning; `makeRelay` builds a relay (not yet started) publishing into the hub. */
  campaign(makeRelay: () => LeaderRelay, onRelay: (relay: LeaderRelay | null) => void): void;
  /** Steps down (stopping the relay) and stops campaigning; the hub keeps following the stream. */
  stopCampaign(): Promise<void>;
  /** Everything, connections included. */
  stop(): Promise<void>;
}

export interface ScaleNodeOptions {
  url: string;
  log: RelayLogger;
  onSubscriberError?: (error: unknown) => void;
  election?: { ttlMs?: number; renewMs?: number; retryMs?: number };
}

export function createScaleNode(options: ScaleNodeOptions): ScaleNode {
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const redis: Redis = createRedis(options.url, "commands");
  const tail: Redis = createRedis(options.url, "tail", { blocking: true });
  let election: LeaderElection | null = null;
  const hub = new RedisHub({
    redis,
    tail,
    log: options.log,
    onSubscriberError: options.onSubscriberError,
    onPublishFailed: () => void election?.resign("publish failed"),
  });
  const loaded = hub.start();
  loaded.catch(() => {});

  return {
    hub,
    instanceId,
    role: () => election?.role ?? "follower",
    campaign(makeRelay, onRelay) {
      if (election) return;
      let relay: LeaderRelay | null = null;
      let term = 0;
      const stopRelay = () => {
        hub.endWriting();
        relay?.stop();
        relay = null;
        onRelay(null);
      };
      election = new LeaderElection({
        redis,
        instanceId,
        log: options.log,
        ...options.election,
        onDemoted: () => {
          term += 1;
          stopRelay();
        },
        onElected: (epoch) => {
          const myTerm = ++term;
          void (async () => {
            try {
              await loaded;
              const published = await hub.beginWriting(epoch);
              const last = (await redis.xrevrange(STREAM_KEY, "+", "-", "COUNT", 1)) as [string, string[]][];
              if (myTerm !== term) return;
              relay = makeRelay();
              for (const call of published) relay.calls.seed(call);
              const lastId = last[0]?.[0];
              if (lastId) {
                // Calls that started (and maybe ended) while no instance held the socket are looked up over REST.
                const lastMs = Number(lastId.split("-")[0]);
                relay.calls.onReconnected(Math.min(lastMs, Date.now() - 15_000));
              }
              onRelay(relay);
              relay.socket.start();
              options.log.info(
                { instanceId, epoch, resumed: published.length },
                "scale: relay started as leader",
              );
            } catch (error) {
              options.log.error(
                { err: error instanceof Error ? error.message : String(error) },
                "scale: could not take over the relay",
              );
              if (myTerm === term) void election?.resign("takeover failed");
            }
          })();
        },
      });
      election.start();
    },
    async stopCampaign() {
      const e = election;
      election = null;
      await e?.stop();
    },
    async stop() {
      await this.stopCampaign();
      hub.stop();
      redis.disconnect();
    },
  };
}
