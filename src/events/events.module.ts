import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventRecord } from './entities/event.entity';
import { EventLog } from './event-log';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The event table: its one writer, used by every feature, and GET /event/…. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([EventRecord])],
  controllers: [EventsController],
  providers: [EventLog, EventsRepository, EventsService],
  exports: [EventLog],
})
export class EventsModule {}
