import { Controller, Get, Param } from '@nestjs/common';
import { ListAnswer } from '../database/find-list';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import { EventListResponseDto, EventReadResponseDto } from './dto/event-response.dto';
import { ListEventsDto } from './dto/list-events.dto';
import { EventsService } from './events.service';

@ApiResource('events')
@Controller('event')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List events',
    description:
      'Beyond the specification: every committed change, oldest first. With object and object_id, the history of one record; with after, a feed to poll (keyset pages, the same cost at any depth; a page ends before any event whose transaction may still be committing, so going on from the last id seen never misses one).',
    query: ListEventsDto,
    success: EventListResponseDto,
    errors: { 422: 'A malformed filter or page' },
  })
  list(@RequestInput() query: ListEventsDto): Promise<ListAnswer<EventListResponseDto>> {
    return this.events.list(query);
  }

  @Get(':id')
  @ApiEndpoint({
    summary: 'Read an event',
    description: 'Beyond the specification.',
    pathId: 'Id of the event',
    success: EventReadResponseDto,
    errors: { 404: 'No event with this id' },
  })
  get(@Param('id', ParseIdPipe) id: number): Promise<EventReadResponseDto> {
    return this.events.get(id);
  }
}
