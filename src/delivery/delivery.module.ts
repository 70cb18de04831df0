import { Global, Module } from '@nestjs/common';
import { DocumentDelivery } from './document-delivery';

@Global()
@Module({ providers: [DocumentDelivery], exports: [DocumentDelivery] })
export class DeliveryModule {}
