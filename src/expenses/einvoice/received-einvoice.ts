import { FieldErrors } from '../../common/domain.exception';
import { isCalendarDate } from '../../common/input-rules';
import { Decimal } from '../../common/money/decimal';
import { UntrustedXml, XmlNode } from '../../common/xml/untrusted-xml';

/**
 * A received EN 16931 invoice or credit note, read from UBL 2.1 or UN/CEFACT CII D16B: what an
 * expense needs of it (BT-1, BT-2, BT-5, BT-27, BT-115), what its source keeps (BT-3, BT-31,
 * the breakdown, the lines) and the totals the calculation rules check. Amounts are exact
 * decimals as written.
 */
export interface ReceivedEinvoice {
  syntax: 'ubl' | 'cii';
  /** UBL CreditNote, or a CII TypeCode of a credit note (381, 261, 262, 296, 308, 396, 420, 458, 532). */
  creditNote: boolean;
  /** BT-3. */
  typeCode: string;
  /** BT-1. */
  number: string;
  /** BT-2, YYYY-MM-DD. */
  issueDate: string;
  /** BT-5. */
  currency: string;
  /** BT-27. */
  sellerName: string;
  /** BT-31, '' when none. */
  sellerVatId: string;
  totals: ReceivedTotals;
  /** BT-92 of each document allowance, BT-99 of each document charge. */
  allowances: Decimal[];
  charges: Decimal[];
  breakdown: ReceivedTaxGroup[];
  lines: ReceivedLine[];
}

/** BG-22; the optional ones null when absent. */
export interface ReceivedTotals {
  lineNet: Decimal; // BT-106
  allowances: Decimal | null; // BT-107
  charges: Decimal | null; // BT-108
  taxExclusive: Decimal; // BT-109
  tax: Decimal | null; // BT-110
  taxInclusive: Decimal; // BT-112
  prepaid: Decimal | null; // BT-113
  rounding: Decimal | null; // BT-114
  due: Decimal; // BT-115
}

/** BG-23. */
export interface ReceivedTaxGroup {
  category: string; // BT-118
  rate: Decimal | null; // BT-119
  taxableAmount: Decimal; // BT-116
  taxAmount: Decimal; // BT-117
}

/** BG-25. */
export interface ReceivedLine {
  id: string; // BT-126
  name: string; // BT-153
  quantity: Decimal; // BT-129
  unit: string; // BT-130
  netPrice: Decimal | null; // BT-146
  netAmount: Decimal; // BT-131
  category: string; // BT-151
  rate: Decimal | null; // BT-152
}

const UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
/** UNTDID 1001 codes of credit notes (EN 16931 allows these as BT-3 of a credit note). */
const CREDIT_NOTE_CODES = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);
/** xs:decimal. */
const XML_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** The longest text kept of a party or a number (the expense's vendor column). */
const MAX_TEXT = 255;

/** The invoice, or the problems by EN 16931 term (`BT-1`, `BT-115`, `syntax`). */
export type ReadOutcome = { invoice: ReceivedEinvoice } | { problems: FieldErrors };

export function readReceivedEinvoice(xml: UntrustedXml): ReadOutcome {
  const reader = new Reader();
  let invoice: ReceivedEinvoice | null = null;
  if (xml.rootName === 'Invoice' && xml.rootNamespace === UBL_INVOICE) {
    invoice = readUbl(reader, xml.root, false);
  } else if (xml.rootName === 'CreditNote' && xml.rootNamespace === UBL_CREDIT_NOTE) {
    invoice = readUbl(reader, xml.root, true);
  } else if (xml.rootName === 'CrossIndustryInvoice' && xml.rootNamespace === CII) {
    invoice = readCii(reader, xml.root);
  } else {
    reader.problem(
      'syntax',
      `The root element ${xml.rootName} in namespace "${xml.rootNamespace}" is neither a UBL 2.1 Invoice or CreditNote nor a UN/CEFACT CII CrossIndustryInvoice`,
    );
  }
  return invoice !== null && reader.isClean() ? { invoice } : { problems: reader.problems };
}

// ---------------------------------------------------------------------------------------------
// UBL 2.1
// ---------------------------------------------------------------------------------------------

function readUbl(reader: Reader, root: XmlNode, creditNote: boolean): ReceivedEinvoice {
  const currency = reader.required('BT-5', 'currency', text(at(root, 'DocumentCurrencyCode')));
  const supplier = at(root, 'AccountingSupplierParty', 'Party');
  const vat = all(supplier, 'PartyTaxScheme').find(
    (scheme) => text(at(scheme, 'TaxScheme', 'ID')) === 'VAT',
  );
  const monetary = at(root, 'LegalMonetaryTotal');
  const amount = (term: string, name: string, node: XmlNode | undefined) =>
    reader.amount(term, name, node, currency);
  // One TaxTotal in the document currency carries the breakdown; a second may give the VAT in
  // the accounting currency (BT-111).
  const taxTotals = all(root, 'TaxTotal');
  const taxTotal =
    taxTotals.find((total) => attribute(at(total, 'TaxAmount'), 'currencyID') === currency) ??
    taxTotals[0];
  const lineName = creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const quantityName = creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';
  const documentCharges = (indicator: boolean) =>
    all(root, 'AllowanceCharge')
      .filter((entry) => isCharge(text(at(entry, 'ChargeIndicator'))) === indicator)
      .map((entry) =>
        reader.requiredAmount('BT-92', 'document allowance or charge amount', at(entry, 'Amount')),
      );
  return {
    syntax: 'ubl',
    creditNote,
    typeCode:
      text(at(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')) ??
      (creditNote ? '381' : '380'),
    number: reader.requiredText('BT-1', 'invoice number', text(at(root, 'ID'))),
    issueDate: reader.date('BT-2', text(at(root, 'IssueDate')), 'iso'),
    currency: currency ?? '',
    sellerName: reader.requiredText(
      'BT-27',
      'seller name',
      text(at(supplier, 'PartyLegalEntity', 'RegistrationName')),
    ),
    sellerVatId: reader.optionalText('BT-31', text(at(vat, 'CompanyID'))),
    totals: {
      lineNet: reader.requiredAmount(
        'BT-106',
        'sum of line net amounts',
        at(monetary, 'LineExtensionAmount'),
      ),
      allowances: amount('BT-107', 'sum of allowances', at(monetary, 'AllowanceTotalAmount')),
      charges: amount('BT-108', 'sum of charges', at(monetary, 'ChargeTotalAmount')),
      taxExclusive: reader.requiredAmount(
        'BT-109',
        'total without VAT',
        at(monetary, 'TaxExclusiveAmount'),
      ),
      tax: amount('BT-110', 'total VAT', at(taxTotal, 'TaxAmount')),
      taxInclusive: reader.requiredAmount(
        'BT-112',
        'total with VAT',
        at(monetary, 'TaxInclusiveAmount'),
      ),
      prepaid: amount('BT-113', 'paid amount', at(monetary, 'PrepaidAmount')),
      rounding: amount('BT-114', 'rounding amount', at(monetary, 'PayableRoundingAmount')),
      due: reader.requiredAmount('BT-115', 'amount due', at(monetary, 'PayableAmount')),
    },
    allowances: documentCharges(false),
    charges: documentCharges(true),
    breakdown: all(taxTotal, 'TaxSubtotal').map((group) => ({
      category: reader.requiredText(
        'BT-118',
        'VAT category code',
        text(at(group, 'TaxCategory', 'ID')),
      ),
      rate: reader.amount('BT-119', 'VAT rate', at(group, 'TaxCategory', 'Percent')),
      taxableAmount: reader.requiredAmount(
        'BT-116',
        'VAT category taxable amount',
        at(group, 'TaxableAmount'),
      ),
      taxAmount: reader.requiredAmount('BT-117', 'VAT category tax amount', at(group, 'TaxAmount')),
    })),
    lines: all(root, lineName).map((line) => ({
      id: reader.requiredText('BT-126', 'line identifier', text(at(line, 'ID'))),
      name: text(at(line, 'Item', 'Name')) ?? '',
      quantity: reader.requiredAmount('BT-129', 'invoiced quantity', at(line, quantityName)),
      unit: attribute(at(line, quantityName), 'unitCode') ?? '',
      netPrice: reader.amount('BT-146', 'item net price', at(line, 'Price', 'PriceAmount')),
      netAmount: reader.requiredAmount(
        'BT-131',
        'line net amount',
        at(line, 'LineExtensionAmount'),
      ),
      category: text(at(line, 'Item', 'ClassifiedTaxCategory', 'ID')) ?? '',
      rate: reader.amount(
        'BT-152',
        'line VAT rate',
        at(line, 'Item', 'ClassifiedTaxCategory', 'Percent'),
      ),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// UN/CEFACT CII D16B
// ---------------------------------------------------------------------------------------------

function readCii(reader: Reader, root: XmlNode): ReceivedEinvoice {
  const document = at(root, 'ExchangedDocument');
  const transaction = at(root, 'SupplyChainTradeTransaction');
  const seller = at(transaction, 'ApplicableHeaderTradeAgreement', 'SellerTradeParty');
  const settlement = at(transaction, 'ApplicableHeaderTradeSettlement');
  const currency = reader.required('BT-5', 'currency', text(at(settlement, 'InvoiceCurrencyCode')));
  const summation = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const vat = all(seller, 'SpecifiedTaxRegistration').find(
    (registration) => attribute(at(registration, 'ID'), 'schemeID') === 'VA',
  );
  const taxTotals = all(summation, 'TaxTotalAmount');
  const taxTotal =
    taxTotals.find((total) => attribute(total, 'currencyID') === currency) ?? taxTotals[0];
  const typeCode = text(at(document, 'TypeCode')) ?? '';
  const documentCharges = (indicator: boolean) =>
    all(settlement, 'SpecifiedTradeAllowanceCharge')
      .filter((entry) => isCharge(text(at(entry, 'ChargeIndicator', 'Indicator'))) === indicator)
      .map((entry) =>
        reader.requiredAmount(
          'BT-92',
          'document allowance or charge amount',
          at(entry, 'ActualAmount'),
        ),
      );
  return {
    syntax: 'cii',
    creditNote: CREDIT_NOTE_CODES.has(typeCode),
    typeCode,
    number: reader.requiredText('BT-1', 'invoice number', text(at(document, 'ID'))),
    issueDate: reader.date(
      'BT-2',
      text(at(document, 'IssueDateTime', 'DateTimeString')),
      'compact',
    ),
    currency: currency ?? '',
    sellerName: reader.requiredText('BT-27', 'seller name', text(at(seller, 'Name'))),
    sellerVatId: reader.optionalText('BT-31', text(at(vat, 'ID'))),
    totals: {
      lineNet: reader.requiredAmount(
        'BT-106',
        'sum of line net amounts',
        at(summation, 'LineTotalAmount'),
      ),
      allowances: reader.amount(
        'BT-107',
        'sum of allowances',
        at(summation, 'AllowanceTotalAmount'),
      ),
      charges: reader.amount('BT-108', 'sum of charges', at(summation, 'ChargeTotalAmount')),
      taxExclusive: reader.requiredAmount(
        'BT-109',
        'total without VAT',
        at(summation, 'TaxBasisTotalAmount'),
      ),
      tax: reader.amount('BT-110', 'total VAT', taxTotal),
      taxInclusive: reader.requiredAmount(
        'BT-112',
        'total with VAT',
        at(summation, 'GrandTotalAmount'),
      ),
      prepaid: reader.amount('BT-113', 'paid amount', at(summation, 'TotalPrepaidAmount')),
      rounding: reader.amount('BT-114', 'rounding amount', at(summation, 'RoundingAmount')),
      due: reader.requiredAmount('BT-115', 'amount due', at(summation, 'DuePayableAmount')),
    },
    allowances: documentCharges(false),
    charges: documentCharges(true),
    breakdown: all(settlement, 'ApplicableTradeTax').map((group) => ({
      category: reader.requiredText('BT-118', 'VAT category code', text(at(group, 'CategoryCode'))),
      rate: reader.amount('BT-119', 'VAT rate', at(group, 'RateApplicablePercent')),
      taxableAmount: reader.requiredAmount(
        'BT-116',
        'VAT category taxable amount',
        at(group, 'BasisAmount'),
      ),
      taxAmount: reader.requiredAmount(
        'BT-117',
        'VAT category tax amount',
        at(group, 'CalculatedAmount'),
      ),
    })),
    lines: all(transaction, 'IncludedSupplyChainTradeLineItem').map((line) => {
      const quantity = at(line, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
      const lineSettlement = at(line, 'SpecifiedLineTradeSettlement');
      const tax = at(lineSettlement, 'ApplicableTradeTax');
      return {
        id: reader.requiredText(
          'BT-126',
          'line identifier',
          text(at(line, 'AssociatedDocumentLineDocument', 'LineID')),
        ),
        name: text(at(line, 'SpecifiedTradeProduct', 'Name')) ?? '',
        quantity: reader.requiredAmount('BT-129', 'invoiced quantity', quantity),
        unit: attribute(quantity, 'unitCode') ?? '',
        netPrice: reader.amount(
          'BT-146',
          'item net price',
          at(line, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount'),
        ),
        netAmount: reader.requiredAmount(
          'BT-131',
          'line net amount',
          at(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'),
        ),
        category: text(at(tax, 'CategoryCode')) ?? '',
        rate: reader.amount('BT-152', 'line VAT rate', at(tax, 'RateApplicablePercent')),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the tree
// ---------------------------------------------------------------------------------------------

/** Collects the problems while the reading goes on, so one answer names all of them. */
class Reader {
  readonly problems: FieldErrors = {};

  problem(term: string, message: string): void {
    (this.problems[term] ??= []).push(message);
  }

  isClean(): boolean {
    return Object.keys(this.problems).length === 0;
  }

  required(term: string, name: string, value: string | undefined): string | undefined {
    if (value === undefined || value === '') this.problem(term, `The ${name} (${term}) is missing`);
    return value === '' ? undefined : value;
  }

  requiredText(term: string, name: string, value: string | undefined): string {
    const present = this.required(term, name, value);
    return present === undefined ? '' : this.optionalText(term, present);
  }

  optionalText(term: string, value: string | undefined): string {
    if (value !== undefined && value.length > MAX_TEXT) {
      this.problem(term, `${term} is longer than ${MAX_TEXT} characters`);
    }
    return value ?? '';
  }

  /** An amount, rate or quantity as xs:decimal; null when absent. */
  amount(term: string, name: string, node: XmlNode | undefined, currency?: string): Decimal | null {
    const value = text(node);
    if (value === undefined || value === '') return null;
    if (!XML_DECIMAL.test(value) || value.length > 40) {
      this.problem(term, `The ${name} (${term}) "${value.slice(0, 40)}" is not a decimal number`);
      return null;
    }
    const declared = attribute(node, 'currencyID');
    if (currency !== undefined && declared !== undefined && declared !== currency) {
      this.problem(
        term,
        `The ${name} (${term}) is in ${declared}, not the invoice currency ${currency}`,
      );
    }
    return new Decimal(value);
  }

  requiredAmount(term: string, name: string, node: XmlNode | undefined): Decimal {
    const value = this.amount(term, name, node);
    if (value === null && (text(node) ?? '') === '') {
      this.problem(term, `The ${name} (${term}) is missing`);
    }
    return value ?? new Decimal(0);
  }

  /** YYYY-MM-DD (UBL) or CII's format 102, YYYYMMDD. */
  date(term: string, value: string | undefined, form: 'iso' | 'compact'): string {
    if (this.required(term, 'issue date', value) === undefined) return '';
    const iso =
      form === 'compact' && /^\d{8}$/.test(value ?? '')
        ? `${value?.slice(0, 4)}-${value?.slice(4, 6)}-${value?.slice(6)}`
        : (value ?? '');
    if (!isCalendarDate(iso)) {
      this.problem(
        term,
        `The issue date (${term}) "${value?.slice(0, 40)}" is not a calendar date`,
      );
      return '';
    }
    return iso;
  }
}

/** A charge indicator as xs:boolean reads it (`true`, `1`; `false`, `0`); null for anything else. */
function isCharge(indicator: string | undefined): boolean | null {
  if (indicator === 'true' || indicator === '1') return true;
  if (indicator === 'false' || indicator === '0') return false;
  return null;
}

/** The first element at the end of `path` (repeated elements: the first of each). */
function at(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let current: XmlNode | undefined = node;
  for (const name of path) {
    if (current === undefined || typeof current === 'string') return undefined;
    const next: XmlNode | XmlNode[] | undefined = current[name];
    current = Array.isArray(next) ? next[0] : next;
  }
  return current;
}

/** Every `name` child of `node`. */
function all(node: XmlNode | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  const found = node[name];
  if (found === undefined) return [];
  return Array.isArray(found) ? found : [found];
}

/** An element's text, without its attributes. */
function text(node: XmlNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === 'string') return node;
  const value = node['#text'];
  return typeof value === 'string' ? value : Object.keys(node).length === 0 ? '' : undefined;
}

function attribute(node: XmlNode | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  const value = node[`@${name}`];
  return typeof value === 'string' ? value : undefined;
}
