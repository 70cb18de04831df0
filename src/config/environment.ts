import { plainToInstance, Type } from 'class-transformer';
import {
  IsBooleanString,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  validateSync,
} from 'class-validator';
import { IsCountryInput, IsEinvoiceAddressInput } from '../common/input-rules';
import { isCurrencyCode } from '../common/money/currency';
import { DOCUMENT_LOCALES, DocumentLocale } from '../document-vocabulary/document-locale';

/** A comma-separated list of API keys: each 16–256 visible ASCII characters, no comma. */
const KEY_LIST = /^\s*[\x21-\x2b\x2d-\x7e]{16,256}\s*(,\s*[\x21-\x2b\x2d-\x7e]{16,256}\s*)*$/;
const KEY_LIST_MESSAGE = (name: string) =>
  `${name} must be a comma-separated list of keys, each 16 to 256 visible ASCII characters without commas`;

/** Every environment variable the service reads, validated once at start-up. */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Matches(/^(mysql|mariadb):\/\/.+\/[^/?]+|^sqlite:.+$/, {
    message:
      'DATABASE_URL must be mysql://user:pass@host:3306/db, mariadb://user:pass@host:3306/db or sqlite:<file>',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DEFAULT_CURRENCY?: string;

  @IsOptional()
  @IsString()
  @Length(1, 64, { message: 'TAX_NAME must be 1 to 64 characters' })
  TAX_NAME?: string;

  @IsOptional()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 100kb or 1mb' })
  BODY_LIMIT?: string;

  @IsOptional()
  @IsBooleanString()
  DATABASE_LOGGING?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_CONNECT_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  DATABASE_QUERY_TIMEOUT_MS?: number;

  @IsOptional()
  @Matches(KEY_LIST, { message: KEY_LIST_MESSAGE('API_KEYS') })
  API_KEYS?: string;

  @IsOptional()
  @Matches(KEY_LIST, { message: KEY_LIST_MESSAGE('API_KEYS_READONLY') })
  API_KEYS_READONLY?: string;

  @IsOptional()
  @IsBooleanString()
  AUTH_DISABLED?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://host:6379 or rediss://…' })
  REDIS_URL?: string;

  @IsOptional()
  @IsBooleanString()
  METRICS_PUBLIC?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  HEADERS_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SHUTDOWN_DRAIN_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  HEALTH_DATABASE_TIMEOUT_MS?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  COMPANY_NAME?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  COMPANY_ADDRESS?: string;

  // Printed by name in each document's language, so it is a code, not text (like a client's).
  @IsOptional()
  @IsCountryInput()
  COMPANY_COUNTRY?: string;

  // BT-34, the issuer's electronic address on every e-invoice: `scheme:identifier` (EAS).
  @IsOptional()
  @IsEinvoiceAddressInput()
  COMPANY_EINVOICE_ADDRESS?: string;

  @IsOptional()
  @IsEmail({}, { message: 'COMPANY_EMAIL must be an e-mail address' })
  COMPANY_EMAIL?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  COMPANY_TAX_ID?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  COMPANY_PHONE?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  COMPANY_WEBSITE?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  COMPANY_REGISTRATION?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  COMPANY_BANK_ACCOUNT?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  COMPANY_BANK_BIC?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  COMPANY_BANK_NAME?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  PAYMENT_TERMS?: string;

  // PAYMENT_TERMS in one document locale each (paymentTermsVariable); unset: PAYMENT_TERMS.
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  PAYMENT_TERMS_EN?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  PAYMENT_TERMS_DE?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  PAYMENT_TERMS_FR?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  PAYMENT_TERMS_ES?: string;

  @IsOptional()
  @IsIn([...DOCUMENT_LOCALES], {
    message: `DOCUMENT_LOCALE must be one of: ${DOCUMENT_LOCALES.join(', ')}`,
  })
  DOCUMENT_LOCALE?: DocumentLocale;

  @IsOptional()
  @Matches(/^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, {
    message: 'MAIL_FROM must be an address, or Name <address>',
  })
  MAIL_FROM?: string;

  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be smtp://user:pass@host:587 or smtps://…' })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  MAIL_DIR?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  MAIL_MAX_ATTEMPTS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  MAIL_RETRY_BASE_MS?: number;

  // 0 turns this instance's delivery worker off (another instance delivers); else 10–60000.
  @IsOptional()
  @Type(() => Number)
  @ValidateIf((env: EnvironmentVariables) => env.OUTBOX_POLL_MS !== 0)
  @IsInt()
  @Min(10)
  @Max(60_000)
  OUTBOX_POLL_MS?: number;

  // How long a claimed e-mail or webhook is held before another instance may take it.
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(2_000)
  @Max(3_600_000)
  OUTBOX_LEASE_MS?: number;

  @IsOptional()
  @IsBooleanString()
  WEBHOOK_ALLOW_PRIVATE?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional()
  @Matches(/^\s*\d{1,10}\s*(,\s*\d{1,10}\s*){0,29}$/, {
    message: 'WEBHOOK_RETRY_DELAYS_MS must be up to 30 comma-separated waits in milliseconds',
  })
  WEBHOOK_RETRY_DELAYS_MS?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000_000_000)
  WEBHOOK_DISABLE_AFTER_MS?: number;

  @IsOptional()
  @Matches(/^\s*[-+]?\d{1,3}\s*(,\s*[-+]?\d{1,3}\s*){0,29}$/, {
    message: 'REMINDER_DAYS must be up to 30 comma-separated whole days, e.g. -3,1,7,14',
  })
  REMINDER_DAYS?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(86_400_000)
  REMINDER_SCAN_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(86_400_000)
  RECURRING_SCAN_MS?: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** The setting of the payment terms in one locale; a locale without one is a compile error. */
export function paymentTermsVariable(
  locale: DocumentLocale,
): `PAYMENT_TERMS_${Uppercase<DocumentLocale>}` & keyof EnvironmentVariables {
  return `PAYMENT_TERMS_${locale.toUpperCase() as Uppercase<DocumentLocale>}`;
}

/** Throws one error naming every bad variable; @nestjs/config stops the process with it. */
export function validateEnvironment(raw: Record<string, unknown>): EnvironmentVariables {
  // `NAME=` (empty) means unset, as in most shells and compose files: the default applies.
  const given = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== ''));
  const env = plainToInstance(EnvironmentVariables, given, { excludeExtraneousValues: false });
  const errors = validateSync(env, { skipMissingProperties: false });
  const messages = errors.flatMap((error) => Object.values(error.constraints ?? {}));
  if (env.DEFAULT_CURRENCY !== undefined && !isCurrencyCode(env.DEFAULT_CURRENCY)) {
    messages.push('DEFAULT_CURRENCY must be an active ISO 4217 code');
  }
  if (env.REMINDER_DAYS?.split(',').some((day) => Math.abs(Number(day.trim())) > 365)) {
    messages.push('REMINDER_DAYS must be days from -365 to 365');
  }
  const webhookTimeoutMs = env.WEBHOOK_TIMEOUT_MS ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (env.OUTBOX_LEASE_MS !== undefined && env.OUTBOX_LEASE_MS < 2 * webhookTimeoutMs) {
    messages.push(
      `OUTBOX_LEASE_MS must be at least twice WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs}): a live attempt must end well within its lease`,
    );
  }
  const full = splitKeys(env.API_KEYS);
  const readOnly = splitKeys(env.API_KEYS_READONLY);
  if (full.some((key) => readOnly.includes(key))) {
    messages.push('API_KEYS and API_KEYS_READONLY must not share a key');
  }
  const open = full.length === 0 && readOnly.length === 0;
  if (open && env.NODE_ENV === 'production' && env.AUTH_DISABLED !== 'true') {
    messages.push(
      'API_KEYS (or API_KEYS_READONLY) must be set when NODE_ENV=production; set AUTH_DISABLED=true to run without keys on purpose',
    );
  }
  if (messages.length > 0) {
    throw new Error(`Invalid configuration: ${messages.join('; ')}`);
  }
  return env;
}

/** `"a, b,c"` → `['a', 'b', 'c']`; unset or empty → `[]`. */
export function splitKeys(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}
