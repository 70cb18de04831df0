import { DeliveryRecord } from '../documents/domain/delivery-state';
import { WrittenLines } from '../documents/document-lines.repository';
import { DocumentTaxGroupRecord } from '../documents/entities/document-columns';
import {
  customerFields,
  dateFields,
  pricingFields,
  taxTermsFields,
  timestampFields,
  toTaxBreakdown,
  toDetailParts,
  toLineItemWrite,
} from '../documents/documents.mapper';
import {
  EstimateDto,
  EstimateReadResponseDto,
  EstimateWithTimestampsDto,
  EstimateWriteResponseDto,
  EstimateWrittenDto,
} from './dto/estimate-response.dto';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';

/*
 * The number is `reference_no` in lists and reads, `estimate_no` in add and update outputs;
 * either way it follows short_code, in the specification's order.
 */

type NumberKey = 'reference_no' | 'estimate_no';

function identityFields(estimate: Estimate): Pick<EstimateDto, 'id' | 'short_code'> {
  return { id: String(estimate.id), short_code: estimate.shortCode };
}

function estimateFields(estimate: Estimate): Omit<EstimateDto, 'id' | 'short_code' | NumberKey> {
  return {
    description: estimate.description,
    ...customerFields(estimate),
    ...pricingFields(estimate),
    accepted: estimate.accepted ? 'True' : 'False',
    draft: estimate.draft,
    ...dateFields(estimate),
    ...taxTermsFields(estimate),
  };
}

/** `GET /estimate/all` and the estimate of `GET /estimate/{id}`: reference_no, no timestamps. */
export function toListItem(estimate: Estimate): EstimateDto {
  return {
    ...identityFields(estimate),
    reference_no: estimate.estimateNo,
    ...estimateFields(estimate),
  };
}

/** Estimates embedded in `GET /client/{id}`: reference_no and timestamps. */
export function toClientListItem(estimate: Estimate): EstimateWithTimestampsDto {
  return { ...toListItem(estimate), ...timestampFields(estimate) };
}

/** `GET /estimate/{id}`: lines with amounts, and the sends with their delivery records by id. */
export function toDetail(
  estimate: Estimate,
  lines: EstimateLineItem[],
  breakdown: DocumentTaxGroupRecord[],
  sends: EstimateSendLogEntry[],
  deliveries: Map<number, DeliveryRecord>,
): EstimateReadResponseDto {
  return {
    estimate: [toListItem(estimate)],
    ...toDetailParts(estimate, lines, breakdown, sends, deliveries),
  };
}

function toWritten(estimate: Estimate): EstimateWrittenDto {
  return {
    ...identityFields(estimate),
    estimate_no: estimate.estimateNo,
    ...estimateFields(estimate),
  };
}

/** Add and update outputs: estimate_no, lines without amounts. */
export function toWriteResult(
  estimate: Estimate,
  { lines, breakdown }: WrittenLines<EstimateLineItem>,
): EstimateWriteResponseDto {
  return {
    estimate: [toWritten(estimate)],
    items: lines.map((line) => toLineItemWrite(line, estimate.currency)),
    tax_breakdown: toTaxBreakdown(breakdown, estimate.currency),
  };
}
