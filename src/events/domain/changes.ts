import { jsonText } from '../../common/json-text';

/** A field's value before and after a change, as the read operation answers it. */
export type FieldChange = [unknown, unknown];

/**
 * Parts of a read answer left out of `changes`: logs that only grow (the event's type and
 * `data` say what was appended), and the document lists GET /client/{id} adds.
 */
const LOGS = new Set(['payments', 'send_log']);

/** The key each read answer holds its record under, as an array of one. */
const RECORD_KEYS = new Set([
  'data',
  'invoice',
  'estimate',
  'credit_note',
  'recurring_invoice',
  'expense',
  'webhook',
]);

/**
 * `{field: [before, after]}` for every field that differs between two read answers of one
 * record. The record itself (`invoice`, `estimate`, `data`, …: an array of one object) is
 * compared field by field; any other part (an invoice's `items`) is compared whole. `before`
 * may hold only the parts the change could touch (a payment cannot touch the lines): the
 * others are not compared. Values are compared by their JSON text, so exact decimals compare
 * exactly.
 */
export function changesBetween(before: object, after: object): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  const beforeParts = before as Record<string, unknown>;
  const afterParts = after as Record<string, unknown>;
  for (const key of Object.keys(beforeParts)) {
    if (LOGS.has(key)) continue;
    const was = beforeParts[key];
    const is = afterParts[key];
    const wasRecord = RECORD_KEYS.has(key) ? soleRecord(was) : null;
    const isRecord = RECORD_KEYS.has(key) ? soleRecord(is) : null;
    if (wasRecord && isRecord) {
      for (const field of unionOfKeys(wasRecord, isRecord)) {
        addIfChanged(changes, field, wasRecord[field], isRecord[field]);
      }
    } else {
      addIfChanged(changes, key, was, is);
    }
  }
  return changes;
}

function addIfChanged(
  changes: Record<string, FieldChange>,
  field: string,
  before: unknown,
  after: unknown,
): void {
  if (jsonText(before) !== jsonText(after)) changes[field] = [before ?? null, after ?? null];
}

function soleRecord(value: unknown): Record<string, unknown> | null {
  if (!Array.isArray(value) || value.length !== 1) return null;
  const [record] = value as unknown[];
  return typeof record === 'object' && record !== null && !Array.isArray(record)
    ? (record as Record<string, unknown>)
    : null;
}

function unionOfKeys(first: object, second: object): string[] {
  return [...new Set([...Object.keys(first), ...Object.keys(second)])];
}
