import { IsOptional, IsString, MaxLength, NotContains } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Trim } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';

export class ListClientsDto extends ListQueryDto {
  /** Part of the names or the e-mail address, any case. */
  @ApiPropertyOptional({
    type: 'string',
    maxLength: 255,
    description:
      'Only clients whose names or e-mail contain this text, in any case; % and _ are literal',
  })
  @IsOptional()
  @Trim()
  @MaxLength(255)
  // SQLite's LIKE stops at a NUL, which would turn any pattern into "match everything".
  @NotContains('\u0000', { message: 'q must not contain a NUL character' })
  @IsString()
  q?: string;
}
