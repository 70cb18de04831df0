import { Module } from '@nestjs/common';
import { NumberingModule } from '../numbering/numbering.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsModule } from '../clients/clients.module';
import { DocumentOperationsModule } from '../document-operations/document-operations.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { LedgerModule } from '../ledger/ledger.module';
import { CreditNoteLinesRepository } from './credit-note-lines.repository';
import { CreditNotesController } from './credit-notes.controller';
import { CreditNotesRepository } from './credit-notes.repository';
import { CreditNotesService } from './credit-notes.service';
import { CreditNoteLineItem } from './entities/credit-note-line-item.entity';
import { CreditNoteTaxGroup } from './entities/credit-note-tax-group.entity';
import { CreditNoteSendLogEntry } from './entities/credit-note-send-log-entry.entity';
import { CreditNote } from './entities/credit-note.entity';

/**
 * Credit notes; asks the ledger to settle the credit on the invoice, clients for the customer,
 * invoices for the date of the invoice a note corrects.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      CreditNote,
      CreditNoteLineItem,
      CreditNoteSendLogEntry,
      CreditNoteTaxGroup,
    ]),
    ClientsModule,
    DocumentOperationsModule,
    InvoicesModule,
    LedgerModule,
    NumberingModule,
  ],
  controllers: [CreditNotesController],
  providers: [CreditNotesService, CreditNotesRepository, CreditNoteLinesRepository],
})
export class CreditNotesModule {}
