/** What a send-log entry shows of its e-mail: a message being sent is still `queued`. */
export type DeliveryState = 'queued' | 'sent' | 'failed';

export const DELIVERY_STATES: readonly DeliveryState[] = ['queued', 'sent', 'failed'];

/**
 * A send's e-mail as the outbox holds it (delivery answers it): `sending` while a worker has
 * claimed it.
 */
export interface DeliveryRecord {
  status: DeliveryState | 'sending';
  attempts: number;
}

/**
 * Sends recorded before the outbox existed were never e-mailed and have no row: they show as
 * failed, with no attempt.
 */
export function deliveryState(record: DeliveryRecord | null | undefined): DeliveryState {
  if (!record) return 'failed';
  return record.status === 'sending' ? 'queued' : record.status;
}
