import { Module } from '@nestjs/common';
import { InvoicesModule } from '../invoices/invoices.module';
import { LedgerController } from './ledger.controller';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

/**
 * The invoice's ledger: payments, refunds, credits, void and the paid / not-paid flag, each one
 * named operation. Asks invoices for the invoice; credit notes ask it to settle a credit.
 */
@Module({
  imports: [InvoicesModule],
  controllers: [LedgerController],
  providers: [LedgerService, LedgerRepository],
  exports: [LedgerService],
})
export class LedgerModule {}
