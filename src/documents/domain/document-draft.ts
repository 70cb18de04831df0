import type { DocumentClient } from '../../clients/clients.service';
import { DomainException } from '../../common/domain.exception';
import { minorUnits } from '../../common/money/currency';
import { Decimal, ZERO } from '../../common/money/decimal';
import { hasAtMostPlaces } from '../../common/money/money';
import type { DocumentInputDto, DocumentTermsInputDto } from '../dto/document-input.dto';
import type { LineItemDto, LineTaxDto } from '../dto/line-item.dto';
import type { DocumentRecord } from '../entities/document-columns';
import {
  DocumentTotals,
  groupKey,
  LineInput,
  LineTax,
  moneyOverLimit,
  priceDocument,
  PricingTerms,
} from './document-totals';
import { DEFAULT_UNIT } from './unit-codes';
import { defaultCategory, defaultExemption, needsExemption } from './vat-categories';

/** Everything an add or update of an invoice or estimate writes, worked out and checked. */
export interface DocumentDraft extends DocumentTotals {
  clientId: number;
  customerName: string;
  customerPhone: string;
  customerAddress: string;
  customerTaxId: string;
  customerCountry: string;
  /** The client's buyer reference (BT-10): what a new invoice carries unless given its own. */
  customerBuyerReference: string;
  description: string;
  currency: string;
  taxRate: Decimal;
  /** The name of the default tax (TAX_NAME when drafted). */
  taxName: string;
  discountPercent: Decimal | null;
  pricesIncludeTax: boolean;
  supplyDate: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  issueDate: string;
  dueDate: string;
  note: string;
}

/** The shared parameters as given; `items` may be absent on update (the stored lines stay). */
export type DocumentInput = Omit<DocumentInputDto, 'items'> & { items?: LineItemDto[] };

/** The shared parameters with the lines read (draftLines), or copied from another document. */
export type DocumentFields = Omit<DocumentInputDto, 'items'> & { items?: LineInput[] };

export interface DraftDefaults {
  currency: string;
  today: string;
  /** The name of the default tax: the TAX_NAME setting (a conversion: the estimate's). */
  taxName: string;
}

/** What an update starts from: the stored document and its lines. */
export interface ExistingDocument {
  record: DocumentRecord;
  lines: LineInput[];
}

/**
 * Applies the shared rules (docs/rules.md): the client must exist (`client`, null when the input
 * names none that may be used: 422), customer fields are copied from it, omitted optional
 * fields keep their stored value (or take their default), due date not before issue date,
 * supply date or period, lines and discounts checked, totals priced exactly and below 10^13.
 */
export function draftDocument(
  input: DocumentFields,
  existing: ExistingDocument | null,
  client: DocumentClient | null,
  defaults: DraftDefaults,
): DocumentDraft {
  if (!client) {
    throw new DomainException('UNKNOWN_CLIENT', `Client ${input.client} does not exist`, {
      client: [`client ${input.client} does not exist or is archived`],
    });
  }
  const stored = existing?.record;
  const issueDate = input.issue_date ?? stored?.issueDate ?? defaults.today;
  const dueDate =
    input.due_date ?? (input.issue_date === undefined ? stored?.dueDate : undefined) ?? issueDate;
  if (dueDate < issueDate) {
    throw DomainException.invalidField('due_date', 'due_date must not be before issue_date');
  }
  const currency = input.currency ?? stored?.currency ?? defaults.currency;
  const taxRate = input.tax_rate ?? stored?.taxRate ?? ZERO;
  const pricesIncludeTax =
    input.prices_include_tax === undefined
      ? (stored?.pricesIncludeTax ?? false)
      : input.prices_include_tax === 'True';
  const lines = input.items ?? existing?.lines ?? [];
  const discount = documentDiscount(input, stored);
  const totals = pricedWithinLimit(lines, {
    currency,
    defaultTax: defaultTax(taxRate, defaults.taxName),
    ...discount,
    pricesIncludeTax,
  });
  return {
    ...totals,
    clientId: client.id,
    customerName: client.names,
    customerPhone: client.phone,
    customerAddress: client.address,
    customerTaxId: client.taxId,
    customerCountry: client.country,
    customerBuyerReference: client.buyerReference,
    description: input.description ?? stored?.description ?? '',
    currency,
    taxRate,
    taxName: defaults.taxName,
    discountPercent: discount.discountPercent,
    pricesIncludeTax,
    ...dateOfSupply(input, stored),
    issueDate,
    dueDate,
    note: input.note ?? stored?.note ?? '',
  };
}

/** The tax of a line that names none: the document's rate, named by TAX_NAME. */
export function defaultTax(rate: Decimal, name: string): LineTax {
  return { name, category: defaultCategory(rate), rate, exemptionReason: '', exemptionCode: '' };
}

/**
 * The document discount: as given (null removes it), else as stored. A stored amount that came
 * from a percent is recomputed from the percent.
 */
function documentDiscount(
  input: DocumentFields,
  stored: DocumentRecord | undefined,
): Pick<PricingTerms, 'discountPercent' | 'discountAmount'> {
  if (input.discount_percent !== undefined || input.discount_amount !== undefined) {
    return {
      discountPercent: input.discount_percent ?? null,
      discountAmount: input.discount_amount ?? null,
    };
  }
  if (!stored || stored.discountPercent !== null) {
    return { discountPercent: stored?.discountPercent ?? null, discountAmount: null };
  }
  return {
    discountPercent: null,
    discountAmount: stored.discountAmount.isZero() ? null : stored.discountAmount,
  };
}

/** The date of supply or the service period: given together replaces what was stored. */
export function dateOfSupply(
  input: Pick<DocumentTermsInputDto, 'supply_date' | 'period_start' | 'period_end'>,
  stored: Pick<DocumentRecord, 'supplyDate' | 'periodStart' | 'periodEnd'> | undefined,
): Pick<DocumentDraft, 'supplyDate' | 'periodStart' | 'periodEnd'> {
  const givesPeriod = input.period_start !== undefined || input.period_end !== undefined;
  if (input.supply_date === undefined && !givesPeriod) {
    return {
      supplyDate: stored?.supplyDate ?? null,
      periodStart: stored?.periodStart ?? null,
      periodEnd: stored?.periodEnd ?? null,
    };
  }
  const supplyDate = input.supply_date ?? null;
  const periodStart = input.period_start ?? null;
  const periodEnd = input.period_end ?? null;
  if (supplyDate !== null && (periodStart !== null || periodEnd !== null)) {
    throw DomainException.invalidField(
      'supply_date',
      'supply_date and a period (period_start, period_end) cannot both be given',
    );
  }
  if ((periodStart === null) !== (periodEnd === null)) {
    const missing = periodStart === null ? 'period_start' : 'period_end';
    throw DomainException.invalidField(missing, `${missing} is required with a period`);
  }
  if (periodStart !== null && periodEnd !== null && periodEnd < periodStart) {
    throw DomainException.invalidField('period_end', 'period_end must not be before period_start');
  }
  return { supplyDate, periodStart, periodEnd };
}

/** What a line's taxes are read with. */
export interface LineContext {
  taxName: string;
  language: string;
}

/**
 * The given lines as the pricing reads them: the default unit, each tax's category, name and
 * exemption filled in and checked (docs/taxes.md). An empty or null `taxes` is the default tax,
 * as a left-out one is.
 */
export function draftLines(items: LineItemDto[], context: LineContext): LineInput[] {
  return items.map((item, index) => ({
    description: item.description,
    quantity: item.quantity,
    rate: item.rate,
    unit: item.unit ?? DEFAULT_UNIT,
    discountPercent: item.discount_percent ?? null,
    discountAmount: item.discount_amount ?? null,
    taxes:
      item.taxes === undefined || item.taxes === null || item.taxes.length === 0
        ? null
        : lineTaxes(item.taxes, `items.${index}.taxes`, context),
  }));
}

function lineTaxes(taxes: LineTaxDto[], field: string, context: LineContext): LineTax[] {
  const drafted = taxes.map((tax, index) => lineTax(tax, `${field}.${index}`, context));
  const keys = drafted.map(groupKey);
  if (new Set(keys).size !== keys.length) {
    throw DomainException.invalidField(field, 'a line cannot carry the same tax twice');
  }
  return drafted;
}

function lineTax(tax: LineTaxDto, field: string, context: LineContext): LineTax {
  const category = tax.category ?? defaultCategory(tax.rate);
  if (category === 'S' && tax.rate.isZero()) {
    throw DomainException.invalidField(
      `${field}.rate`,
      'rate must be above 0 for category S (standard rate); a rate of 0 is category Z',
    );
  }
  if (!['S', 'L', 'M'].includes(category) && !tax.rate.isZero()) {
    throw DomainException.invalidField(`${field}.rate`, `rate must be 0 for category ${category}`);
  }
  let exemptionReason = tax.exemption_reason ?? '';
  let exemptionCode = tax.exemption_code ?? '';
  const exempted = exemptionReason !== '' || exemptionCode !== '';
  if (!needsExemption(category) && exempted) {
    throw DomainException.invalidField(
      `${field}.${tax.exemption_reason === undefined ? 'exemption_code' : 'exemption_reason'}`,
      `category ${category} takes no exemption; only E, AE, K, G and O do`,
    );
  }
  if (needsExemption(category) && !exempted) {
    const standard = defaultExemption(category, context.language);
    if (!standard) {
      throw DomainException.invalidField(
        `${field}.exemption_reason`,
        `category ${category} needs exemption_reason or exemption_code`,
      );
    }
    exemptionReason = standard.reason;
    exemptionCode = standard.code;
  }
  return {
    name: tax.name ?? context.taxName,
    category,
    rate: tax.rate,
    exemptionReason,
    exemptionCode,
  };
}

/**
 * The lines priced exactly (docs/rules.md) after the checks that need the currency and the
 * sub-total: discounts in the currency's minor digits and within what they discount, one tax per
 * line with inclusive prices, one exemption per tax group, every money value below 10^13.
 */
export function pricedWithinLimit(lines: LineInput[], terms: PricingTerms): DocumentTotals {
  checkLines(lines, terms);
  const digits = minorUnits(terms.currency);
  if (terms.discountAmount !== null && !hasAtMostPlaces(terms.discountAmount, digits)) {
    throw DomainException.invalidField(
      'discount_amount',
      `discount_amount must have at most ${digits} decimals for ${terms.currency}`,
    );
  }
  const totals = priceDocument(lines, terms);
  const overLimit = moneyOverLimit(totals);
  if (overLimit.length > 0) {
    throw new DomainException(
      'VALIDATION_FAILED',
      'The given data was invalid',
      Object.fromEntries(
        overLimit.map((field) => [field, [`${field} must be below 10000000000000`]]),
      ),
    );
  }
  if (totals.discountAmount.gt(totals.subTotal)) {
    throw DomainException.invalidField(
      'discount_amount',
      'discount_amount must not exceed the sub-total',
    );
  }
  return totals;
}

function checkLines(lines: LineInput[], terms: PricingTerms): void {
  const digits = minorUnits(terms.currency);
  const exemptions = new Map<string, string>();
  lines.forEach((line, index) => {
    const field = `items.${index}`;
    if (line.discountAmount !== null) {
      if (!hasAtMostPlaces(line.discountAmount, digits)) {
        throw DomainException.invalidField(
          `${field}.discount_amount`,
          `discount_amount must have at most ${digits} decimals for ${terms.currency}`,
        );
      }
      if (line.discountAmount.gt(line.quantity.times(line.rate))) {
        throw DomainException.invalidField(
          `${field}.discount_amount`,
          'discount_amount must not exceed quantity × rate',
        );
      }
    }
    const taxes = line.taxes ?? [terms.defaultTax];
    if (terms.pricesIncludeTax && taxes.length > 1) {
      throw DomainException.invalidField(
        `${field}.taxes`,
        'with prices_include_tax a line carries at most one tax',
      );
    }
    taxes.forEach((tax, position) => {
      if (tax.exemptionReason === '' && tax.exemptionCode === '') return;
      const key = groupKey(tax);
      const exemption = JSON.stringify([tax.exemptionReason, tax.exemptionCode]);
      const first = exemptions.get(key);
      if (first !== undefined && first !== exemption) {
        throw DomainException.invalidField(
          `${field}.taxes.${position}.exemption_reason`,
          'the lines of one tax group (name, category, rate) must give the same exemption',
        );
      }
      exemptions.set(key, exemption);
    });
  });
}

/** The columns of a document row that a draft decides. */
export type DraftColumns = Pick<
  DocumentRecord,
  | 'clientId'
  | 'customerName'
  | 'customerPhone'
  | 'customerAddress'
  | 'customerTaxId'
  | 'customerCountry'
  | 'description'
  | 'currency'
  | 'taxRate'
  | 'taxName'
  | 'subTotal'
  | 'discountPercent'
  | 'discountAmount'
  | 'taxAmount'
  | 'total'
  | 'pricesIncludeTax'
  | 'supplyDate'
  | 'periodStart'
  | 'periodEnd'
  | 'issueDate'
  | 'dueDate'
  | 'note'
>;

export function draftColumns(draft: DocumentDraft): DraftColumns {
  return {
    clientId: draft.clientId,
    customerName: draft.customerName,
    customerPhone: draft.customerPhone,
    customerAddress: draft.customerAddress,
    customerTaxId: draft.customerTaxId,
    customerCountry: draft.customerCountry,
    description: draft.description,
    currency: draft.currency,
    taxRate: draft.taxRate,
    taxName: draft.taxName,
    subTotal: draft.subTotal,
    discountPercent: draft.discountPercent,
    discountAmount: draft.discountAmount,
    taxAmount: draft.taxAmount,
    total: draft.total,
    pricesIncludeTax: draft.pricesIncludeTax,
    supplyDate: draft.supplyDate,
    periodStart: draft.periodStart,
    periodEnd: draft.periodEnd,
    issueDate: draft.issueDate,
    dueDate: draft.dueDate,
    note: draft.note,
  };
}
