import {
  customerFields,
  dateFields,
  pricingFields,
  timestampFields,
  toLineItemRead,
  toLineItemWrite,
  toSendLogEntry,
} from '../documents/documents.mapper';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';

/** The number is `reference_no` in lists and reads, `estimate_no` in add and update outputs. */
type NumberKey = 'reference_no' | 'estimate_no';

function estimateFields(estimate: Estimate, numberKey: NumberKey) {
  return {
    id: String(estimate.id),
    short_code: estimate.shortCode,
    [numberKey]: estimate.estimateNo,
    description: estimate.description,
    ...customerFields(estimate),
    ...pricingFields(estimate),
    accepted: estimate.accepted ? 'True' : 'False',
    ...dateFields(estimate),
  };
}

/** `GET /estimate/all`: reference_no, no timestamps. */
export function toListItem(estimate: Estimate) {
  return estimateFields(estimate, 'reference_no');
}

/** Estimates embedded in `GET /client/{id}`: reference_no and timestamps. */
export function toClientListItem(estimate: Estimate) {
  return { ...estimateFields(estimate, 'reference_no'), ...timestampFields(estimate) };
}

/** `GET /estimate/{id}`: lines with amounts and the send log. */
export function toDetail(
  estimate: Estimate,
  lines: EstimateLineItem[],
  sends: EstimateSendLogEntry[],
) {
  return {
    estimate: [estimateFields(estimate, 'reference_no')],
    items: lines.map((line) => toLineItemRead(line, estimate.currency)),
    send_log: sends.map(toSendLogEntry),
  };
}

/** Add and update outputs: estimate_no, lines without amounts. */
export function toWriteResult(estimate: Estimate, lines: EstimateLineItem[]) {
  return {
    estimate: [estimateFields(estimate, 'estimate_no')],
    items: lines.map((line) => toLineItemWrite(line, estimate.currency)),
  };
}
