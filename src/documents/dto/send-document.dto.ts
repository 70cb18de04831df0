import { Transform } from 'class-transformer';
import { IsDefined, IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../common/input-rules';

/** `POST /invoice/send` and `POST /estimate/send`. */
export class SendDocumentDto {
  @IsDefined({ message: 'id is required' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @Matches(/^\d{1,10}$/, { message: 'id must be a string of digits' })
  @IsString()
  id: string;

  @IsDefined({ message: 'email is required' })
  @Trim()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @IsString()
  email: string;

  @IsOptional()
  @Trim()
  @MaxLength(32)
  @IsString()
  phone?: string;
}
