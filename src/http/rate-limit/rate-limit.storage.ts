import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';

/** Fixed, so that every instance on one Redis counts against the same limit. */
export const RATE_LIMIT_KEY_PREFIX = 'invoicing:rate-limit:';

/**
 * Where the request counters live: in Redis when REDIS_URL is set, so instances share one
 * limit; in memory otherwise. While Redis cannot be reached the counters fall back to memory
 * (one limit per instance) rather than refusing requests: the rate limit guards against
 * floods, and a cache outage should not take the invoicing API down with it.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new ThrottlerStorageService();
  private readonly redis?: Redis;
  private readonly shared?: ThrottlerStorageRedisService;
  private redisFailing = false;

  constructor(config: AppConfig) {
    if (config.redisUrl === undefined || config.rateLimitPerMinute === 0) return;
    this.redis = new Redis(config.redisUrl, {
      keyPrefix: RATE_LIMIT_KEY_PREFIX,
      lazyConnect: true,
      // Fail fast instead of queueing: a request waits at most commandTimeout on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      commandTimeout: 500,
      // How long a disconnect waits for the socket to close; ioredis waits 2 s by default even
      // for a socket that never opened, which holds the process open after shutdown.
      disconnectTimeout: 100,
    });
    // ioredis keeps reconnecting on its own; these only report the outage and the recovery.
    this.redis.on('error', (error: Error) => this.reportFailure(error));
    this.redis.on('ready', () => this.reportRecovery());
    this.shared = new ThrottlerStorageRedisService(this.redis);
  }

  async onModuleInit(): Promise<void> {
    // Connected before the first request; Redis being down does not stop the start-up.
    await this.redis?.connect().catch((error: Error) => this.reportFailure(error));
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    if (this.shared) {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
        this.reportRecovery();
        return record;
      } catch (error) {
        this.reportFailure(error as Error);
      }
    }
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    this.memory.onApplicationShutdown();
    if (this.redis === undefined) return;
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis?.disconnect());
    } else {
      this.redis.disconnect();
    }
  }

  /** Logged once per outage, not once per request; the URL, which may hold a password, never. */
  private reportFailure(error: Error): void {
    if (this.redisFailing) return;
    this.redisFailing = true;
    this.logger.warn(
      `Redis unreachable (${error.message}): rate limits are counted per instance until it is back`,
    );
  }

  private reportRecovery(): void {
    if (!this.redisFailing) return;
    this.redisFailing = false;
    this.logger.log('Redis reachable again: rate limits are shared across instances');
  }
}
