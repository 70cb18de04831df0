import { IsOptional } from 'class-validator';
import { IsDateInput, IsNotBefore, IsIdInput, IsOneOf } from '../../common/input-rules';
import { ListQueryDto } from '../../common/list-query.dto';
import {
  DateInputProperty,
  IdInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';
import { EVENT_OBJECTS, EVENT_TYPES } from '../event-types';

/** `GET /event/all`: the feed, or one record's history. */
export class ListEventsDto extends ListQueryDto {
  @ListedValueInputProperty(EVENT_TYPES, { required: false, description: 'Only this type' })
  @IsOptional()
  @IsOneOf(EVENT_TYPES)
  type?: string;

  @ListedValueInputProperty(EVENT_OBJECTS, {
    required: false,
    description: 'Only events about this kind of record',
  })
  @IsOptional()
  @IsOneOf(EVENT_OBJECTS)
  object?: string;

  @IdInputProperty({
    required: false,
    description: 'Only events about the record with this id (with object: its history)',
  })
  @IsOptional()
  @IsIdInput('object_id must be the id of a record')
  object_id?: string;

  @DateInputProperty({ required: false, description: 'Earliest created_at date (UTC), inclusive' })
  @IsOptional()
  @IsDateInput()
  from?: string;

  @DateInputProperty({
    required: false,
    description: 'Latest created_at date (UTC), inclusive; not before `from`',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('from')
  to?: string;
}
