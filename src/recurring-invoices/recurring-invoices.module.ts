import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/clients.module';
import { DocumentOperationsModule } from '../document-operations/document-operations.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { RecurringInvoice } from './entities/recurring-invoice.entity';
import { RecurringInvoiceJob } from './recurring-invoice-job';
import { RecurringInvoicesController } from './recurring-invoices.controller';
import { RecurringInvoicesRepository } from './recurring-invoices.repository';
import { RecurringInvoicesService } from './recurring-invoices.service';

/**
 * Recurring invoices: schedules through the API, and the periodic job that makes each period's
 * invoice. Asks invoices to write (and send) them, clients for the client, document operations
 * for the drafting rules.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RecurringInvoice]),
    InvoicesModule,
    ClientsModule,
    DocumentOperationsModule,
  ],
  controllers: [RecurringInvoicesController],
  providers: [RecurringInvoicesService, RecurringInvoicesRepository, RecurringInvoiceJob],
})
export class RecurringInvoicesModule {}
