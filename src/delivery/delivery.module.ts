import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DocumentDelivery } from './document-delivery';
import { OutboxMessage } from './entities/outbox-message.entity';
import { MailJob } from './mail-job';
import { createMailTransport, MAIL_TRANSPORT } from './mail-transport';

/** Sends documents by e-mail through the outbox: the writer the documents use, and the worker. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage])],
  providers: [
    DocumentDelivery,
    MailJob,
    { provide: MAIL_TRANSPORT, inject: [AppConfig], useFactory: createMailTransport },
  ],
  exports: [DocumentDelivery],
})
export class DeliveryModule {}
