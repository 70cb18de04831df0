/*
 * The words of an invoice's money: its payment status, how money came or went, and the kinds
 * of entry in its ledger. The rules that move the ledger are in src/ledger/domain/ledger.ts.
 */

export const PAYMENT_STATUSES = ['Paid', 'Not Paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = [
  'Cash',
  'Bank Transfer',
  'Cheque',
  'Credit Card',
  'Others',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'Others';

/** Money received, money returned, and what a credit note settles (docs/corrections.md). */
export const LEDGER_ENTRY_STATUSES = ['Completed', 'Refunded', 'Credited'] as const;
export type LedgerEntryStatus = (typeof LEDGER_ENTRY_STATUSES)[number];
