import { plainToInstance, Type } from 'class-transformer';
import {
  IsBooleanString,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';
import { isCurrencyCode } from '../common/money/currency';

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
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 100kb or 1mb' })
  BODY_LIMIT?: string;

  @IsOptional()
  @IsBooleanString()
  DATABASE_LOGGING?: string;
}

/** Throws one error naming every bad variable; @nestjs/config stops the process with it. */
export function validateEnvironment(raw: Record<string, unknown>): EnvironmentVariables {
  const env = plainToInstance(EnvironmentVariables, raw, { excludeExtraneousValues: false });
  const errors = validateSync(env, { skipMissingProperties: false });
  const messages = errors.flatMap((error) => Object.values(error.constraints ?? {}));
  if (env.DEFAULT_CURRENCY !== undefined && !isCurrencyCode(env.DEFAULT_CURRENCY)) {
    messages.push('DEFAULT_CURRENCY must be an active ISO 4217 code');
  }
  if (messages.length > 0) {
    throw new Error(`Invalid configuration: ${messages.join('; ')}`);
  }
  return env;
}
