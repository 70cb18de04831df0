import { documentDetailQuery, documentPrintQuery } from '../documents/document-detail.query';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateTaxGroup } from './entities/estimate-tax-group.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';

const ESTIMATE_TABLES = {
  document: Estimate,
  lines: EstimateLineItem,
  breakdown: EstimateTaxGroup,
  sends: EstimateSendLogEntry,
  parentColumn: 'estimate_id',
  children: {},
  liveOnly: true,
};

/** The live estimate with its lines and send log, or null. */
export const readEstimateDetail = documentDetailQuery(ESTIMATE_TABLES);

/** The same, and its client's language: what a PDF or an e-mail of it is made from. */
export const readEstimatePrint = documentPrintQuery(ESTIMATE_TABLES);

export type EstimateDetailRecord = NonNullable<Awaited<ReturnType<typeof readEstimateDetail>>>;
export type EstimatePrintRecord = NonNullable<Awaited<ReturnType<typeof readEstimatePrint>>>;
