import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { apiKeyOf } from '../auth/api-key.guard';
import { isPublicRoute } from '../auth/public.decorator';

/**
 * RATE_LIMIT_PER_MINUTE requests per API key (per client address when the API is open) over
 * all routes together; past it, 429 with Retry-After. Runs after the API key guard, which
 * tells it the key. Routes that need no key (probes, docs) are not limited.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  /** With no limit configured there is nothing to count: no key, no storage, no headers. */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.rateLimitPerMinute === 0) return Promise.resolve(true);
    return super.canActivate(context);
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(isPublicRoute(this.reflector, context, this.config));
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const apiKey = apiKeyOf(request as unknown as Request);
    if (apiKey) return `key:${apiKey.id}`;
    return `ip:${await super.getTracker(request)}`;
  }

  /** One counter per caller, not per route: the limit is on everything a key does. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }
}
