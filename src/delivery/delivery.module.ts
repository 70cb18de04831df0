import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DeliveryWorker } from './delivery.worker';
import { DocumentDelivery } from './document-delivery';
import { OutboxMessage } from './entities/outbox-message.entity';
import { createMailTransport, MAIL_TRANSPORT } from './mail-transport';
import { OutboxQueue } from './outbox-queue';

/** Sends documents by e-mail through the outbox: the writer the documents use, and the worker. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage])],
  providers: [
    DocumentDelivery,
    OutboxQueue,
    DeliveryWorker,
    { provide: MAIL_TRANSPORT, inject: [AppConfig], useFactory: createMailTransport },
  ],
  exports: [DocumentDelivery],
})
export class DeliveryModule {}
