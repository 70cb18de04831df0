import { unitSymbol } from '../domain/unit-codes';
import { DEFAULT_TAX_NAME } from '../../document-vocabulary/tax-name';
import { categoryName, isVatCategory, needsExemption } from '../domain/vat-categories';
import type {
  DocumentView,
  DocumentViewLine,
  DocumentViewTax,
  DocumentViewTaxGroup,
} from '../document-view';
import { DocumentMessages, MessageKey } from './document-messages';

/** A labelled line of a document or its e-mail: a total, a detail of the issuer. */
export interface LabelledRow {
  label: string;
  value: string;
  /** Bold: the total and the balance due. */
  strong?: boolean;
  /**
   * A remark without a value, printed muted under the row before it (a tax group's exemption)
   * or at the head of the block ("Prices include tax"): its text is `label`, `value` is ''.
   */
  note?: boolean;
}

/**
 * The Spanish territorial taxes (categories L and M) are known by their own names in every
 * language: a tax of the default name in them is not the locale's VAT.
 */
const TERRITORIAL_TAX_NAMES: Readonly<Record<string, string>> = { L: 'IGIC', M: 'IPSI' };

/**
 * The totals as the PDF and the e-mail both print them, in the document's currency and
 * locale. They agree with the API and with each other:
 * - the sub-total, the document discount (negative, between the sub-total and the taxes), a
 *   row per tax group (taxRows), the total; with prices that include tax a note says so first,
 *   and the block still ends in the gross total the customer saw;
 * - an invoice prints its `amount_paid` (payments and credits less refunds), named "paid and
 *   credited" when credits count in it, so the signed ledger rows sum to it;
 * - an open invoice then asks for its balance; a paid one shows a balance of 0, what was
 *   settled without a recorded payment (marked paid by hand) said as such; a void one asks for
 *   nothing and prints no balance;
 * - a credit note that returned money says how much and when.
 */
export function totalRows(view: DocumentView, messages: DocumentMessages): LabelledRow[] {
  const { t, money, date } = messages;
  const shown = (value: string) => money(value, view.currency);
  const rows: LabelledRow[] = [];
  if (view.pricesIncludeTax === true) {
    rows.push({ label: t('label.pricesIncludeTax'), value: '', note: true });
  }
  rows.push({ label: t('label.subTotal'), value: shown(view.subTotal) });
  if (view.discount !== undefined && isPositive(view.discount)) {
    rows.push({
      label: discountLabel(messages, view.discountPercent),
      value: shown(`-${view.discount}`),
    });
  }
  rows.push(...taxRows(view, messages));
  rows.push({ label: t('label.total'), value: shown(view.total), strong: true });
  if (view.refunded !== undefined && isPositive(view.refunded)) {
    rows.push({
      label: t('label.refundedOn', { date: date(view.issueDate) }),
      value: shown(view.refunded),
    });
  }
  if (view.amountPaid === undefined) return rows;
  rows.push({
    label: t(settledByCredit(view) ? 'label.paidAndCredited' : 'label.amountPaid'),
    value: shown(view.amountPaid),
  });
  if (view.mark === 'void') return rows;
  const balance = view.balanceDue ?? '0';
  if (view.mark === 'paid') {
    if (isPositive(balance))
      rows.push({ label: t('label.settledOtherwise'), value: shown(balance) });
    rows.push({ label: t('label.balance'), value: shown(zeroLike(balance)), strong: true });
    return rows;
  }
  rows.push({ label: t('label.balanceDue'), value: shown(balance), strong: true });
  return rows;
}

/**
 * Whether the document asks to be paid, and so prints how (bank details, payment terms): an
 * invoice that is neither paid nor void and still has a balance. Estimates and credit notes
 * never do.
 */
export function asksForPayment(view: DocumentView): boolean {
  return (
    view.kind === 'invoice' && view.mark === undefined && isPositive(view.balanceDue ?? view.total)
  );
}

/** Whether credit notes count in the invoice's amount paid: then it is not all paid money. */
export function settledByCredit(view: DocumentView): boolean {
  return (view.ledger ?? []).some((entry) => entry.kind === 'credit');
}

/** Whether plain decimal text is above zero. */
export function isPositive(decimalText: string): boolean {
  return !decimalText.startsWith('-') && /[1-9]/.test(decimalText);
}

/** Zero with the same decimal places as the text (`238.00` → `0.00`, `1500` → `0`). */
function zeroLike(decimalText: string): string {
  const fraction = decimalText.split('.')[1];
  return fraction === undefined ? '0' : `0.${'0'.repeat(fraction.length)}`;
}

/**
 * `Label: value` as the locale writes it (`label.pair`: fr `Label : value`), or '' when there
 * is no value (the line is then left out).
 */
export function labelled(messages: DocumentMessages, key: MessageKey, value: string): string {
  return value && messages.t('label.pair', { label: messages.t(key), value });
}

/**
 * The tax rows of the totals, one per group of the VAT breakdown, each followed by its
 * exemption (the reason, the VATEX code in brackets) when it has one:
 * - a document whose one group carries the whole sub-total prints the row it always printed,
 *   `Tax (8.25%)`: a plain single-rate document looks as it did before groups existed;
 * - otherwise each group says what it was charged on (`USt. (19 %) auf 85,50 EUR`);
 * - with prices that include tax, each group is what the gross amounts contain
 *   (`Incl. Tax (19%) on 90.00 EUR`), so the rows are not added to the total;
 * - a view queued before the breakdown existed prints its one tax at `taxRate`.
 */
function taxRows(view: DocumentView, messages: DocumentMessages): LabelledRow[] {
  const { t, amount, money } = messages;
  const shown = (value: string) => money(value, view.currency);
  const groups = view.taxBreakdown ?? [];
  if (groups.length === 0) {
    return [
      { label: t('label.tax', { rate: amount(view.taxRate) }), value: shown(view.taxAmount) },
    ];
  }
  const inclusive = view.pricesIncludeTax === true;
  const whole = groups.length === 1 && !inclusive && groups[0].taxableAmount === view.subTotal;
  return groups.flatMap((group) => {
    const charged = whole
      ? taxLabel(group, messages)
      : t('label.taxOn', { tax: taxLabel(group, messages), amount: shown(group.taxableAmount) });
    const rows: LabelledRow[] = [
      {
        label: inclusive ? t('label.taxIncluded', { tax: charged }) : charged,
        value: shown(group.taxAmount),
      },
    ];
    const exemption = exemptionText(group, messages);
    if (exemption !== '') rows.push({ label: exemption, value: '', note: true });
    return rows;
  });
}

/**
 * A tax as the document names it, with its rate: `USt. (19 %)` for the default name in German,
 * `GST (5%)` for a named one. A category whose rate does not say why no tax is charged (exempt,
 * reverse charge, intra-community supply, export, outside the scope) is named after the rate:
 * `USt. (0 %, Reverse Charge)`. Standard and zero rates need no name, IGIC and IPSI are theirs.
 */
export function taxLabel(tax: DocumentViewTax, { t, amount, locale }: DocumentMessages): string {
  const rate = amount(tax.rate);
  const territorial = TERRITORIAL_TAX_NAMES[tax.category];
  const isDefaultName = tax.name === DEFAULT_TAX_NAME;
  const name = isDefaultName ? (territorial ?? t('label.taxName')) : tax.name;
  if (isVatCategory(tax.category) && needsExemption(tax.category)) {
    return t('label.taxCategory', { name, rate, category: categoryName(tax.category, locale) });
  }
  if (isDefaultName && territorial === undefined) return t('label.tax', { rate });
  return t('label.namedTax', { name, rate });
}

/** Why a group charges no tax: `Reason (VATEX-EU-AE)`, either part alone, or ''. */
function exemptionText(group: DocumentViewTaxGroup, { t }: DocumentMessages): string {
  const reason = group.exemptionReason.trim();
  const code = group.exemptionCode.trim();
  if (reason !== '' && code !== '') return t('label.exemption', { reason, code });
  return reason || code;
}

/** `Discount (10%)`, or `Discount` for one given as an amount. */
function discountLabel({ t, amount }: DocumentMessages, percent: string | undefined): string {
  return percent === undefined
    ? t('label.discount')
    : t('label.discountPercent', { percent: amount(percent) });
}

/**
 * A line's quantity and, after a no-break space, its unit as the language writes it (`3 Std.`,
 * `2.5 kg`); a plain count (C62, and lines queued before units) prints the number alone.
 */
export function quantityText(line: DocumentViewLine, { amount, locale }: DocumentMessages): string {
  const unit = line.unit === undefined ? '' : unitSymbol(line.unit, locale, line.quantity);
  const quantity = amount(line.quantity);
  return unit === '' ? quantity : `${quantity}\u00a0${unit}`;
}

/**
 * What each line prints under its description, in order (the PDF joins them with ` · `):
 * - its discount, when it has one: `Discount (10%): -28.50`, or `Discount: -5.00` for an
 *   amount (the line's amount is already net of it);
 * - its taxes, when the lines do not all carry the same ones: the labels of its groups as the
 *   totals print them, joined by ` + ` (`GST (5%) + PST (7%)`), so a line is matched to its
 *   rows of the breakdown by the same words. When every line carries the same taxes, the
 *   breakdown says it once and the lines say nothing.
 */
export function lineNotes(view: DocumentView, messages: DocumentMessages): string[][] {
  const { t, amount } = messages;
  const taxSets = view.lines.map((line) => taxSetKey(line.taxes));
  const taxesDiffer = taxSets.some((key) => key !== taxSets[0]);
  return view.lines.map((line) => {
    const notes: string[] = [];
    if (line.discount !== undefined && isPositive(line.discount)) {
      notes.push(
        t('label.pair', {
          label: discountLabel(messages, line.discountPercent),
          value: amount(`-${line.discount}`),
        }),
      );
    }
    if (taxesDiffer && line.taxes !== undefined && line.taxes.length > 0) {
      notes.push(line.taxes.map((tax) => taxLabel(tax, messages)).join(' + '));
    }
    return notes;
  });
}

/** A line's taxes as one comparable text: lines with equal keys are in the same tax set. */
function taxSetKey(taxes: DocumentViewTax[] | undefined): string {
  return JSON.stringify((taxes ?? []).map((tax) => [tax.name, tax.category, tax.rate]));
}

/**
 * The date of supply, or the service period (`1. März 2026 – 31. März 2026`), as a row of the
 * document's dates; none when the document gives neither.
 */
export function supplyRow(view: DocumentView, { t, date }: DocumentMessages): LabelledRow | null {
  if (view.supplyDate) return { label: t('label.supplyDate'), value: date(view.supplyDate) };
  if (view.periodStart && view.periodEnd) {
    return {
      label: t('label.servicePeriod'),
      value: t('label.period', { from: date(view.periodStart), to: date(view.periodEnd) }),
    };
  }
  return null;
}

/**
 * The buyer's reference (BT-10, a Leitweg-ID) and purchase order (BT-13) as rows of the
 * document's details, each when the invoice gives it.
 */
export function referenceRows(view: DocumentView, { t }: DocumentMessages): LabelledRow[] {
  const rows: LabelledRow[] = [];
  if (view.buyerReference)
    rows.push({ label: t('label.buyerReference'), value: view.buyerReference });
  if (view.orderReference)
    rows.push({ label: t('label.orderReference'), value: view.orderReference });
  return rows;
}
