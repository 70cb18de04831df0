import { Module } from '@nestjs/common';
import { NumberingModule } from '../numbering/numbering.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentOperationsModule } from '../document-operations/document-operations.module';
import { InvoiceLineItem } from './entities/invoice-line-item.entity';
import { InvoiceTaxGroup } from './entities/invoice-tax-group.entity';
import { InvoicePayment } from './entities/invoice-payment.entity';
import { InvoiceSendLogEntry } from './entities/invoice-send-log-entry.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceLinesRepository } from './invoice-lines.repository';
import { InvoicesController } from './invoices.controller';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

/**
 * Invoices; drafts (with their client), sends and prints them with the document operations.
 * Its repository is exported to the ledger and to reminders, which act on the invoice row
 * under its lock (each in its own unit of work).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Invoice,
      InvoiceLineItem,
      InvoicePayment,
      InvoiceSendLogEntry,
      InvoiceTaxGroup,
    ]),
    DocumentOperationsModule,
    NumberingModule,
  ],
  controllers: [InvoicesController],
  providers: [InvoicesService, InvoicesRepository, InvoiceLinesRepository],
  exports: [InvoicesService, InvoicesRepository],
})
export class InvoicesModule {}
