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
  @IsString()
  @Trim()
  @Length(1, 255, { message: 'names must be 1 to 255 characters' })
  names: string;

  @IsOptional()
  @IsString()
  @Trim()
  @ValidateIf((_, value) => value !== '')
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @Trim()
  @MaxLength(32)
  phone?: string;

  @IsOptional()
  @IsString()
  @Trim()
  @MaxLength(1000)
  address?: string;
}
