import { EntityManager } from 'typeorm';
import { JsonRows, jsonRows } from '../database/json-rows';
import { EstimateLineItem } from './entities/estimate-line-item.entity';
import { EstimateSendLogEntry } from './entities/estimate-send-log-entry.entity';
import { Estimate } from './entities/estimate.entity';

export interface EstimateDetailRecord {
  estimate: Estimate;
  lines: EstimateLineItem[];
  sends: EstimateSendLogEntry[];
}

interface EstimateDetailRow extends Record<string, unknown> {
  line_items: unknown;
  send_log: unknown;
}

/** The live estimate's columns, and its lines and send log as JSON. */
function estimateDetailSql(rows: JsonRows): string {
  return `SELECT ${rows.columns(Estimate, 'estimate')},
      ${rows.children(EstimateLineItem, 'line', 'line.estimate_id = estimate.id')} AS line_items,
      ${rows.children(EstimateSendLogEntry, 'entry', 'entry.estimate_id = estimate.id')} AS send_log
    FROM estimates estimate
    WHERE estimate.id = ? AND estimate.deleted_at IS NULL`;
}

/**
 * The live estimate with its lines (position order) and send log (id order), or null.
 * One statement, so every part is read at the same moment without a transaction.
 */
export async function readEstimateDetail(
  manager: EntityManager,
  id: number,
): Promise<EstimateDetailRecord | null> {
  const rows = jsonRows(manager);
  const [row] = await manager.query<EstimateDetailRow[]>(rows.statement(estimateDetailSql), [id]);
  if (!row) return null;
  // JSON aggregates keep no order on MySQL 8: sort here.
  return {
    estimate: rows.entity(Estimate, row),
    lines: rows
      .childEntities(EstimateLineItem, row.line_items)
      .sort((a, b) => a.position - b.position),
    sends: rows.childEntities(EstimateSendLogEntry, row.send_log).sort((a, b) => a.id - b.id),
  };
}
