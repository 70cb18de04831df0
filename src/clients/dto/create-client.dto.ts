import {
  IsDefined,
  IsEmail,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { Trim } from '../../common/input-rules';

export class CreateClientDto {
  @IsDefined({ message: 'names is required' })
  @Trim()
  @Length(1, 255, { message: 'names must be 1 to 255 characters' })
  @IsString()
  names: string;

  @IsOptional()
  @Trim()
  @ValidateIf((_, value) => value !== '')
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  @IsString()
  email?: string;

  @IsOptional()
  @Trim()
  @MaxLength(32)
  @IsString()
  phone?: string;

  @IsOptional()
  @Trim()
  @MaxLength(1000)
  @IsString()
  address?: string;
}
