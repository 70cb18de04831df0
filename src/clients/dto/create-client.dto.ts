import {
  IsDefined,
  IsEmail,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCountryInput, IsLanguageInput, Trim } from '../../common/input-rules';
import { COUNTRY_CODES, LANGUAGE_CODES } from '../../common/iso-codes';

export class CreateClientDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 255, description: 'Full name; trimmed' })
  @IsDefined({ message: 'names is required' })
  @Trim()
  @Length(1, 255, { message: 'names must be 1 to 255 characters' })
  @IsString()
  names: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'email',
    maxLength: 254,
    description: 'A valid e-mail address, or "" for none',
  })
  @IsOptional()
  @Trim()
  @ValidateIf((_, value) => value !== '')
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  @IsString()
  email?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 32 })
  @IsOptional()
  @Trim()
  @MaxLength(32)
  @IsString()
  phone?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 1000 })
  @IsOptional()
  @Trim()
  @MaxLength(1000)
  @IsString()
  address?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 32, description: 'Tax or VAT id; trimmed' })
  @IsOptional()
  @Trim()
  @MaxLength(32)
  @IsString()
  tax_id?: string;

  @ApiPropertyOptional({
    type: 'string',
    enum: ['', ...COUNTRY_CODES],
    description: 'ISO 3166-1 alpha-2 code, matched in any case, stored upper case; "" for none',
  })
  @IsOptional()
  @IsCountryInput()
  country?: string;

  @ApiPropertyOptional({
    type: 'string',
    enum: ['', ...LANGUAGE_CODES],
    description:
      'ISO 639-1 code, matched in any case, stored lower case; "" for none. Its documents print in it when there are messages for it (DOCUMENT_LOCALE otherwise)',
  })
  @IsOptional()
  @IsLanguageInput()
  language?: string;
}
