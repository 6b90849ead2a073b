import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import type { StructuredLog } from "../log";
import type { Consumer } from "../live/consumer";
import type { Leadership } from "../live/create-live";
import { LeaderElection } from "./leader";
import { createRedis } from "./redis";
import { RedisBus, STREAM_KEY } from "./redis-bus";

/**
 * One app instance in a Redis deployment: its live bus (following the shared stream) and its candidacy for the
 * upstream socket. Only the leader runs the live bus's upstream consumer; on election it resumes every call from what
 * was published (the per-call hash) and lets the sequencer fill the gap from REST before anything new is published,
 * so a failover neither loses nor repeats a sentence.
 */

export interface ScaleNode extends Leadership {
  bus: RedisBus;
  instanceId: string;
  /** Everything, connections included. */
  stop(): Promise<void>;
}

export interface ScaleNodeOptions {
  url: string;
  log: StructuredLog;
  onSubscriberError?: (error: unknown) => void;
  election?: { ttlMs?: number; renewMs?: number; retryMs?: number };
}

export function createScaleNode(options: ScaleNodeOptions): ScaleNode {
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const redis: Redis = createRedis(options.url, "commands");
  const tail: Redis = createRedis(options.url, "tail", { blocking: true });
  let election: LeaderElection | null = null;
  const bus = new RedisBus({
    redis,
    tail,
    log: options.log,
    onSubscriberError: options.onSubscriberError,
    onPublishFailed: () => void election?.resign("publish failed"),
  });
  const loaded = bus.start();
  loaded.catch(() => {});

  return {
    bus,
    instanceId,
    role: () => election?.role ?? "follower",
    following: () => bus.isFollowing,
    campaign(makeConsumer, onConsumer) {
      if (election) return;
      let consumer: Consumer | null = null;
      let term = 0;
      const stopConsumer = () => {
        bus.endWriting();
        consumer?.stop();
        consumer = null;
        onConsumer(null);
      };
      election = new LeaderElection({
        redis,
        instanceId,
        log: options.log,
        ...options.election,
        onDemoted: () => {
          term += 1;
          stopConsumer();
        },
        onElected: (epoch) => {
          const myTerm = ++term;
          void (async () => {
            try {
              await loaded;
              const published = await bus.beginWriting(epoch);
              const last = (await redis.xrevrange(STREAM_KEY, "+", "-", "COUNT", 1)) as [string, string[]][];
              if (myTerm !== term) return;
              consumer = makeConsumer();
              for (const call of published) consumer.sequencer.seed(call);
              const lastId = last[0]?.[0];
              if (lastId) {
                // Calls that started (and maybe ended) while no instance held the socket are looked up over REST.
                const lastMs = Number(lastId.split("-")[0]);
                consumer.sequencer.onReconnected(Math.min(lastMs, Date.now() - 15_000));
              }
              onConsumer(consumer);
              consumer.socket.start();
              options.log.info(
                { instanceId, epoch, resumed: published.length },
                "scale: upstream consumer started as leader",
              );
            } catch (error) {
              options.log.error(
                { err: error instanceof Error ? error.message : String(error) },
                "scale: could not take over the upstream consumer",
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
      bus.stop();
      redis.disconnect();
    },
  };
}
