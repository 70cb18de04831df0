import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';
import { WebhookJob } from './webhook-job';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Webhook endpoints through the API, and the job that delivers events to them. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookDeliveryAttempt])],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService, WebhookSender, WebhookJob],
})
export class WebhooksModule {}
