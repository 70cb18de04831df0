import { Injectable } from '@nestjs/common';
import { DEFAULT_TAX_NAME } from '../document-vocabulary/tax-name';
import { ConfigService } from '@nestjs/config';
import { DOCUMENT_LOCALES, DocumentLocale } from '../document-vocabulary/document-locale';
import { Issuer } from '../document-vocabulary/issuer';
import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  EnvironmentVariables,
  paymentTermsVariable,
  splitKeys,
} from './environment';

export const DEFAULT_DATABASE_URL = 'sqlite:data/invoicing.sqlite';

/** Typed, defaulted view of the validated environment. Code reads this, never process.env. */
@Injectable()
export class AppConfig {
  constructor(private readonly config: ConfigService<EnvironmentVariables, true>) {}

  private read<K extends keyof EnvironmentVariables>(name: K): EnvironmentVariables[K] {
    return this.config.get(name, { infer: true });
  }

  get nodeEnv(): string {
    return this.read('NODE_ENV') ?? 'development';
  }

  get port(): number {
    return this.read('PORT') ?? 3000;
  }

  get host(): string {
    return this.read('HOST') ?? '0.0.0.0';
  }

  get databaseUrl(): string {
    return this.read('DATABASE_URL') ?? DEFAULT_DATABASE_URL;
  }

  get databaseLogging(): boolean {
    return this.read('DATABASE_LOGGING') === 'true';
  }

  /**
   * MySQL/MariaDB: the longest a request waits for a connection, a new one's handshake or a
   * free one from the pool; past it the request answers 503.
   */
  get databaseConnectTimeoutMs(): number {
    return this.read('DATABASE_CONNECT_TIMEOUT_MS') ?? 5_000;
  }

  /**
   * MySQL/MariaDB: the longest one statement may run; past it the connection is dropped (the
   * server rolls its transaction back) and the request answers 503.
   */
  get databaseQueryTimeoutMs(): number {
    return this.read('DATABASE_QUERY_TIMEOUT_MS') ?? 10_000;
  }

  /** The name of the tax a line carries when it names none (docs/rules.md, taxes). */
  get taxName(): string {
    return this.read('TAX_NAME')?.trim() || DEFAULT_TAX_NAME;
  }

  get defaultCurrency(): string {
    return (this.read('DEFAULT_CURRENCY') ?? 'USD').toUpperCase();
  }

  get bodyLimit(): string {
    return this.read('BODY_LIMIT') ?? '1mb';
  }

  /** Keys that may do everything. */
  get apiKeys(): string[] {
    return splitKeys(this.read('API_KEYS'));
  }

  /** Keys that may only read (GET). */
  get readOnlyApiKeys(): string[] {
    return splitKeys(this.read('API_KEYS_READONLY'));
  }

  /** True when no key is configured: the API is open (refused in production unless AUTH_DISABLED). */
  get authOpen(): boolean {
    return this.apiKeys.length === 0 && this.readOnlyApiKeys.length === 0;
  }

  /** Requests per minute per key (per client address when open); 0 turns limiting off. */
  get rateLimitPerMinute(): number {
    return this.read('RATE_LIMIT_PER_MINUTE') ?? 600;
  }

  /** Where rate-limit counters live so that instances share them; unset: in memory. */
  get redisUrl(): string | undefined {
    return this.read('REDIS_URL');
  }

  /** `/metrics` needs no key even when keys are set. */
  get metricsPublic(): boolean {
    return this.read('METRICS_PUBLIC') === 'true';
  }

  get logLevel(): string {
    return this.read('LOG_LEVEL') ?? (this.nodeEnv === 'test' ? 'warn' : 'info');
  }

  /** Longest a request may take to arrive in full (Node's server.requestTimeout). */
  get requestTimeoutMs(): number {
    return this.read('REQUEST_TIMEOUT_MS') ?? 30_000;
  }

  /** Longest the request headers may take to arrive (Node's server.headersTimeout). */
  get headersTimeoutMs(): number {
    return this.read('HEADERS_TIMEOUT_MS') ?? 10_000;
  }

  /** After SIGTERM: how long readiness fails before the listener closes. */
  get shutdownDrainMs(): number {
    return this.read('SHUTDOWN_DRAIN_MS') ?? 5_000;
  }

  /** After SIGTERM: the bound on the whole shutdown; past it the process exits anyway. */
  get shutdownTimeoutMs(): number {
    return this.read('SHUTDOWN_TIMEOUT_MS') ?? 25_000;
  }

  /** `/health/ready` fails when the database does not answer within this. */
  get healthDatabaseTimeoutMs(): number {
    return this.read('HEALTH_DATABASE_TIMEOUT_MS') ?? 1_500;
  }

  /** The issuer printed on documents and named in e-mails; '' where a setting is not set. */
  get company(): Issuer {
    return {
      name: this.read('COMPANY_NAME') ?? 'Invoicing',
      address: this.read('COMPANY_ADDRESS') ?? '',
      country: this.read('COMPANY_COUNTRY') ?? '',
      einvoiceAddress: this.read('COMPANY_EINVOICE_ADDRESS') ?? '',
      email: this.read('COMPANY_EMAIL') ?? '',
      taxId: this.read('COMPANY_TAX_ID') ?? '',
      phone: this.read('COMPANY_PHONE') ?? '',
      website: this.read('COMPANY_WEBSITE') ?? '',
      registration: this.read('COMPANY_REGISTRATION') ?? '',
      bankAccount: this.read('COMPANY_BANK_ACCOUNT') ?? '',
      bankBic: this.read('COMPANY_BANK_BIC') ?? '',
      bankName: this.read('COMPANY_BANK_NAME') ?? '',
      paymentTerms: this.read('PAYMENT_TERMS') ?? '',
      paymentTermsByLocale: Object.fromEntries(
        DOCUMENT_LOCALES.map((locale) => [locale, this.read(paymentTermsVariable(locale)) ?? '']),
      ),
    };
  }

  /** What a document prints in when its client's language has no messages. */
  get documentLocale(): DocumentLocale {
    return this.read('DOCUMENT_LOCALE') ?? 'en';
  }

  /** `From` of every e-mail: MAIL_FROM, else the company e-mail, else a local address. */
  get mailFrom(): string {
    const company = this.company;
    const address = this.read('MAIL_FROM') ?? (company.email || 'invoicing@localhost');
    return address.includes('<') ? address : `"${company.name.replace(/["\\]/g, '')}" <${address}>`;
  }

  /** Deliver over SMTP; unset: write each message as an .eml file under `mailDir`. */
  get smtpUrl(): string | undefined {
    return this.read('SMTP_URL');
  }

  get mailDir(): string {
    return this.read('MAIL_DIR') ?? 'data/outbox';
  }

  /** Delivery attempts before a message is marked failed. */
  get mailMaxAttempts(): number {
    return this.read('MAIL_MAX_ATTEMPTS') ?? 10;
  }

  /** Wait before the second attempt; doubled for each one after, capped at one hour. */
  get mailRetryBaseMs(): number {
    return this.read('MAIL_RETRY_BASE_MS') ?? 30_000;
  }

  /** How often the delivery worker looks for due messages when it found none; 0: no worker. */
  get outboxPollMs(): number {
    return this.read('OUTBOX_POLL_MS') ?? 1_000;
  }

  /**
   * How long a claimed e-mail or webhook is held before another instance may take it again:
   * only an instance that died lets a lease run out (a live one ends or gives back its claims).
   * Default two minutes, or twice WEBHOOK_TIMEOUT_MS when that is longer; never less than that.
   */
  get outboxLeaseMs(): number {
    return (
      this.read('OUTBOX_LEASE_MS') ?? Math.max(DEFAULT_OUTBOX_LEASE_MS, 2 * this.webhookTimeoutMs)
    );
  }

  /**
   * Whether webhook URLs may name loopback, private, link-local and other non-public
   * addresses: off by default, since a webhook is a request the service makes into its own
   * network; on for tests and an internal cluster.
   */
  get webhookAllowPrivate(): boolean {
    return this.read('WEBHOOK_ALLOW_PRIVATE') === 'true';
  }

  /** The longest one webhook attempt may take, connection to last byte read. */
  get webhookTimeoutMs(): number {
    return this.read('WEBHOOK_TIMEOUT_MS') ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  }

  /**
   * The reminder steps, days relative to the due date, ascending and each once; empty (the
   * default) sends no reminders. Each is within ±365 days.
   */
  get reminderDays(): number[] {
    const given = this.read('REMINDER_DAYS');
    if (given === undefined) return [];
    const days = given.split(',').map((day) => Number(day.trim()));
    return [...new Set(days)].sort((a, b) => a - b);
  }

  /** How often an instance with reminders on looks for steps to send. */
  get reminderScanMs(): number {
    return this.read('REMINDER_SCAN_MS') ?? 60_000;
  }

  /** How often every instance looks for recurring invoices with a period due (and at start-up). */
  get recurringScanMs(): number {
    return this.read('RECURRING_SCAN_MS') ?? 60_000;
  }

  /**
   * The wait after each failed webhook attempt; when they are spent the delivery is failed.
   * Default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h: about three days.
   */
  get webhookRetryDelaysMs(): number[] {
    const given = this.read('WEBHOOK_RETRY_DELAYS_MS');
    if (given === undefined) return DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
    return given.split(',').map((wait) => Number(wait.trim()));
  }

  /** An endpoint with no successful delivery for this long is switched off (default 5 days). */
  get webhookDisableAfterMs(): number {
    return this.read('WEBHOOK_DISABLE_AFTER_MS') ?? 5 * DAY_MS;
  }
}

const DEFAULT_OUTBOX_LEASE_MS = 120_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  300_000,
  1_800_000,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  14 * HOUR_MS,
  20 * HOUR_MS,
  20 * HOUR_MS,
];
