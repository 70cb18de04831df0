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
import {
  IsCountryInput,
  IsEinvoiceAddressInput,
  IsLanguageInput,
  IsOneOf,
  Trim,
} from '../../common/input-rules';
import { EINVOICE_ADDRESS_MAX_LENGTH, EINVOICE_FORMATS } from '../../common/einvoice-codes';
import { COUNTRY_CODES, LANGUAGE_CODES } from '../../common/iso-codes';
import { ListedValueInputProperty } from '../../openapi/schema-property.decorator';

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

  @ListedValueInputProperty(['', ...COUNTRY_CODES], {
    required: false,
    description: 'Country; "" for none',
    named: 'An assigned ISO 3166-1 alpha-2 code (DE, US, …; upper case as listed)',
  })
  @IsOptional()
  @IsCountryInput()
  country?: string;

  @ListedValueInputProperty(['', ...LANGUAGE_CODES], {
    required: false,
    description:
      'Language; "" for none. Its documents print in it when there are messages for it (DOCUMENT_LOCALE otherwise)',
    named: 'An ISO 639-1 code (en, de, fr, …; lower case as listed)',
  })
  @IsOptional()
  @IsLanguageInput()
  language?: string;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: EINVOICE_ADDRESS_MAX_LENGTH,
    pattern: '^(([0-9]{4}|[A-Za-z]{2}):[\\x21-\\x7e]{1,254})?$',
    description:
      'Where the client receives e-invoices (BT-49): scheme:identifier, the scheme a code of the EAS list in any case (0088 GLN, 0204 Leitweg-ID, 9930 German VAT id, EM e-mail, …) and the identifier 1 to 254 printable characters without spaces, e.g. 0088:5790000435975; "" for none',
  })
  @IsOptional()
  @IsEinvoiceAddressInput()
  einvoice_address?: string;

  @ListedValueInputProperty(['', ...EINVOICE_FORMATS], {
    required: false,
    description:
      'The e-invoice format its documents are sent in, attached to each e-mail; "" for none',
  })
  @IsOptional()
  @IsOneOf(['', ...EINVOICE_FORMATS])
  einvoice_format?: string;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 255,
    description:
      'BT-10, the reference the client asks its invoices to carry (a Leitweg-ID in Germany): each new invoice takes it unless given its own; trimmed, "" for none',
  })
  @IsOptional()
  @Trim()
  @MaxLength(255)
  @IsString()
  buyer_reference?: string;
}
