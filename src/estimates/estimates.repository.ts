import { Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../database/database';
import { ArchivableDocumentRepository } from '../documents/document.repository';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';
import {
  EstimateDetailRecord,
  EstimatePrintRecord,
  readEstimateDetail,
  readEstimatePrint,
} from './estimate-detail.query';

/** Estimates and their send log. */
@Injectable()
export class EstimatesRepository extends ArchivableDocumentRepository<
  Estimate,
  EstimateSendLogEntry
> {
  constructor(database: Database) {
    super(database, {
      kind: 'estimate',
      document: Estimate,
      sendLogEntry: EstimateSendLogEntry,
      sendLogParentKey: 'estimateId',
      numberKey: 'estimateNo',
      numberParam: 'estimate_no',
      numberIndex: ['uq_estimates_live_estimate_no', 'estimates.estimate_no'],
      duplicateNumberCode: 'DUPLICATE_ESTIMATE_NO',
      indexedFilters: ['clientId'],
    });
  }

  /** True when an insert failed because its short code is another estimate's. */
  shortCodeTaken(error: unknown): boolean {
    return isUniqueViolation(error, 'uq_estimates_short_code', 'estimates.short_code');
  }

  /**
   * The live estimate with its lines and send log, or null: one statement, so every part is
   * read at the same moment without a transaction.
   */
  findLiveDetail(id: number): Promise<EstimateDetailRecord | null> {
    return readEstimateDetail(this.database.manager, id);
  }

  /** The live estimate as printed (the detail and its client's language), or null: one statement. */
  findLivePrint(id: number): Promise<EstimatePrintRecord | null> {
    return readEstimatePrint(this.database.manager, id);
  }

  /** The estimate became this invoice, and so is accepted. */
  async markConverted(id: number, invoiceId: number, at: Date): Promise<void> {
    await this.database.manager.update(Estimate, id, {
      accepted: true,
      convertedInvoiceId: invoiceId,
      updatedAt: at,
    });
  }
}
