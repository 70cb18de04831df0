import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Trim } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';

export class ListClientsDto extends ListQueryDto {
  /** Part of the names or the e-mail address, any case. */
  @IsOptional()
  @Trim()
  @MaxLength(255)
  @IsString()
  q?: string;
}
