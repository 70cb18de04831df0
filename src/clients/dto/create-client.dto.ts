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
import { Trim } from '../../common/input-rules';

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
}
