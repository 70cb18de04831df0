import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module';
import { DocumentDrafts } from './document-drafts';
import { DocumentOperations } from './document-operations';

/**
 * What invoices, estimates and credit notes do alike: drafting with the client (clients
 * feature), sending through the outbox, printing. Below the three, above documents, delivery
 * and clients.
 */
@Module({
  imports: [ClientsModule],
  providers: [DocumentDrafts, DocumentOperations],
  exports: [DocumentDrafts, DocumentOperations],
})
export class DocumentOperationsModule {}
