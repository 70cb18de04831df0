import { Module } from '@nestjs/common';
import { getOptionsToken, getStorageToken, ThrottlerModuleOptions } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { RateLimitStorage } from './rate-limit.storage';

const ONE_MINUTE_MS = 60_000;

/**
 * What the rate-limit guard (an APP_GUARD in AppModule, after the API key guard) needs: the
 * limit from the configuration and the counters' storage.
 */
@Module({
  providers: [
    RateLimitStorage,
    { provide: getStorageToken(), useExisting: RateLimitStorage },
    {
      provide: getOptionsToken(),
      inject: [AppConfig],
      useFactory: (config: AppConfig): ThrottlerModuleOptions => ({
        throttlers: [{ ttl: ONE_MINUTE_MS, limit: config.rateLimitPerMinute }],
        errorMessage: 'Too many requests, try again later',
      }),
    },
  ],
  exports: [getStorageToken(), getOptionsToken()],
})
export class RateLimitModule {}
