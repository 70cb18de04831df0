import { IsDefined, IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIdInput, Trim } from '../../common/input-rules';
import { IdInputProperty } from '../../openapi/schema-property.decorator';

/** `POST /invoice/send` and `POST /estimate/send`. */
export class SendDocumentDto {
  @IdInputProperty({ description: 'Id of the document to send' })
  @IsDefined({ message: 'id is required' })
  @IsIdInput('id must be a string of digits')
  id: string;

  @ApiProperty({ type: 'string', format: 'email', maxLength: 254 })
  @IsDefined({ message: 'email is required' })
  @Trim()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @IsString()
  email: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 32 })
  @IsOptional()
  @Trim()
  @MaxLength(32)
  @IsString()
  phone?: string;
}
