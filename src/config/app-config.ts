import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EnvironmentVariables } from './environment';

export const DEFAULT_DATABASE_URL = 'sqlite:data/invoicing.sqlite';

/** Typed, defaulted view of the validated environment. Code reads this, never process.env. */
@Injectable()
export class AppConfig {
  constructor(private readonly config: ConfigService<EnvironmentVariables, true>) {}

  get port(): number {
    return this.config.get('PORT', { infer: true }) ?? 3000;
  }

  get host(): string {
    return this.config.get('HOST', { infer: true }) ?? '0.0.0.0';
  }

  get databaseUrl(): string {
    return this.config.get('DATABASE_URL', { infer: true }) ?? DEFAULT_DATABASE_URL;
  }

  get databaseLogging(): boolean {
    return this.config.get('DATABASE_LOGGING', { infer: true }) === 'true';
  }

  get defaultCurrency(): string {
    return (this.config.get('DEFAULT_CURRENCY', { infer: true }) ?? 'USD').toUpperCase();
  }

  get bodyLimit(): string {
    return this.config.get('BODY_LIMIT', { infer: true }) ?? '1mb';
  }
}
