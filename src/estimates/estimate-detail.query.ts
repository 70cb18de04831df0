import { documentDetailQuery } from '../documents/document-detail.query';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';

/** The live estimate with its lines and send log, or null. */
export const readEstimateDetail = documentDetailQuery({
  document: Estimate,
  lines: EstimateLineItem,
  sends: EstimateSendLogEntry,
  parentColumn: 'estimate_id',
  children: {},
  liveOnly: true,
});

export type EstimateDetailRecord = NonNullable<Awaited<ReturnType<typeof readEstimateDetail>>>;
