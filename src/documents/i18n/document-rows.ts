import { DocumentLocale, DocumentView, Issuer } from '../pdf/document-view';
import { DocumentMessages, MessageKey } from './document-messages';

/** A labelled line of a document or its e-mail: a total, a detail of the issuer. */
export interface LabelledRow {
  label: string;
  value: string;
  /** Bold: the total and the balance due. */
  strong?: boolean;
}

/**
 * The totals as the PDF and the e-mail both print them, in the document's currency and
 * locale; invoices add what is paid and what is left.
 */
export function totalRows(
  view: DocumentView,
  { t, amount, money }: DocumentMessages,
): LabelledRow[] {
  const shown = (value: string) => money(value, view.currency);
  const rows: LabelledRow[] = [
    { label: t('label.subTotal'), value: shown(view.subTotal) },
    { label: t('label.tax', { rate: amount(view.taxRate) }), value: shown(view.taxAmount) },
    { label: t('label.total'), value: shown(view.total), strong: true },
  ];
  if (view.amountPaid !== undefined) {
    rows.push({ label: t('label.amountPaid'), value: shown(view.amountPaid) });
  }
  if (view.balanceDue !== undefined) {
    rows.push({ label: t('label.balanceDue'), value: shown(view.balanceDue), strong: true });
  }
  return rows;
}

/**
 * `Label: value` as the locale writes it (`label.pair`: fr `Label : value`), or '' when there
 * is no value (the line is then left out).
 */
export function labelled(messages: DocumentMessages, key: MessageKey, value: string): string {
  return value && messages.t('label.pair', { label: messages.t(key), value });
}

/**
 * The issuer's payment terms in a locale: its own (PAYMENT_TERMS_DE, …) when set, else
 * PAYMENT_TERMS; '' when neither is.
 */
export function paymentTermsIn(issuer: Issuer, locale: DocumentLocale): string {
  return issuer.paymentTermsByLocale?.[locale] || issuer.paymentTerms;
}
