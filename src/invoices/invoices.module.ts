import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/clients.module';
import { DocumentDrafts } from '../documents/document-drafts';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceLinesRepository } from './invoice-lines.repository';
import { InvoicesController } from './invoices.controller';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

/** Invoices; asks the clients feature for the client of an invoice. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Invoice, InvoiceLineItem, InvoicePayment, InvoiceSendLogEntry]),
    ClientsModule,
  ],
  controllers: [InvoicesController],
  providers: [InvoicesService, InvoicesRepository, InvoiceLinesRepository, DocumentDrafts],
  exports: [InvoicesService, InvoicesRepository],
})
export class InvoicesModule {}
