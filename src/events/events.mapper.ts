import { formatTimestamp } from '../common/clock';
import { RawJson } from '../common/json-text';
import { EventDto } from './dto/event-response.dto';
import { EventRecord } from './entities/event.entity';

/** An event as every output shows it; `data` and `changes` go out as they were stored. */
export function toEventOutput(event: EventRecord): EventDto {
  return {
    id: String(event.id),
    type: event.type,
    created_at: formatTimestamp(event.createdAt),
    actor: event.actor,
    object: event.object,
    object_id: String(event.objectId),
    data: new RawJson(event.data),
    changes: new RawJson(event.changes),
  };
}
