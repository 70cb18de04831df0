/**
 * Every event type, `<object>.<verb>`: what a webhook endpoint may subscribe to and GET
 * /event/all may filter on. Types are data: one writer records them all (EventLog).
 */
export const EVENT_TYPES = [
  'client.created',
  'client.updated',
  'client.deleted',
  'invoice.created',
  'invoice.updated',
  'invoice.deleted',
  'invoice.sent',
  'invoice.payment_recorded',
  'invoice.refunded',
  'invoice.credited',
  'invoice.voided',
  'invoice.issued',
  'invoice.marked_paid',
  'invoice.marked_not_paid',
  'invoice.delivery_sent',
  'invoice.delivery_failed',
  'invoice.reminder_sent',
  'estimate.created',
  'estimate.updated',
  'estimate.deleted',
  'estimate.sent',
  'estimate.converted',
  'estimate.issued',
  'estimate.delivery_sent',
  'estimate.delivery_failed',
  'credit_note.created',
  'credit_note.sent',
  'credit_note.delivery_sent',
  'credit_note.delivery_failed',
  'recurring_invoice.created',
  'recurring_invoice.updated',
  'recurring_invoice.paused',
  'recurring_invoice.resumed',
  'recurring_invoice.invoiced',
  'recurring_invoice.ended',
  'recurring_invoice.deleted',
  'expense.created',
  'expense.updated',
  'expense.deleted',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The kinds of record events are about: each names the read operation `data` comes from. */
export type EventObject =
  | 'client'
  | 'invoice'
  | 'estimate'
  | 'credit_note'
  | 'recurring_invoice'
  | 'expense'
  | 'webhook_endpoint';

export const EVENT_OBJECTS: readonly EventObject[] = [
  'client',
  'invoice',
  'estimate',
  'credit_note',
  'recurring_invoice',
  'expense',
  'webhook_endpoint',
];
