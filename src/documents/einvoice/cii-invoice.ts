import { XMLBuilder } from 'fast-xml-parser';
import { minorUnits } from '../../common/money/currency';
import { Decimal, sum } from '../../common/money/decimal';
import { parseEinvoiceAddress } from '../../common/einvoice-codes';
import type { Issuer } from '../../document-vocabulary/issuer';
import type { DocumentView, DocumentViewLine, DocumentViewTaxGroup } from '../document-view';

/*
 * An invoice as an EN 16931 e-invoice in UN/CEFACT CII D16B (the syntax of Factur-X and
 * XRechnung's CII flavour), written from the printed view: every figure is the one the API
 * answers and the PDF prints, none computed again but the document discount's share per VAT
 * group, which is the difference the view already holds (docs/einvoices.md). Not served yet:
 * the route, the other syntaxes and credit notes come next.
 */

/** What the e-invoice needs beyond the view: the issuer, and where the buyer receives it. */
export interface EinvoiceParties {
  seller: Issuer;
  /** The client's `einvoice_address` ('' for none). */
  buyerAddress: string;
}

/** Each missing or unsupported piece, by the field that would supply it (the 422's `errors`). */
export type EinvoiceProblems = Record<string, string[]>;

export type CiiResult = { xml: string } | { problems: EinvoiceProblems };

const NAMESPACES = {
  '@_xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  '@_xmlns:ram':
    'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  '@_xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  '@_xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** EN 16931's own specification identifier (BT-24): the core, no national profile. */
const EN16931 = 'urn:cen.eu:en16931:2017';

/** A VAT identifier starts with its country's code (BR-CO-9; Greece writes EL). */
const VAT_ID = /^[A-Z]{2}[0-9A-Za-z+*.]{2,}$/;

/** A tax number as a VAT identifier, written without its spaces (`DE 123 456 789`); or null. */
function vatIdentifier(taxId: string): string | null {
  const compact = taxId.replace(/\s+/g, '');
  return VAT_ID.test(compact) ? compact : null;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
});

type Node = Record<string, unknown>;

/** The invoice's CII, or what it lacks for one. */
export function ciiInvoice(view: DocumentView, parties: EinvoiceParties): CiiResult {
  const problems = problemsOf(view, parties);
  if (Object.keys(problems).length > 0) return { problems };
  const document: Node = {
    'rsm:ExchangedDocumentContext': {
      'ram:GuidelineSpecifiedDocumentContextParameter': { 'ram:ID': EN16931 },
    },
    'rsm:ExchangedDocument': {
      'ram:ID': text(view.number),
      'ram:TypeCode': '380',
      'ram:IssueDateTime': dateTime(view.issueDate),
      'ram:IncludedNote': [view.description, view.note]
        .filter((note) => note.trim() !== '')
        .map((note) => ({ 'ram:Content': text(note) })),
    },
    'rsm:SupplyChainTradeTransaction': {
      'ram:IncludedSupplyChainTradeLineItem': view.lines.map((line, index) =>
        lineItem(line, index, view.currency),
      ),
      'ram:ApplicableHeaderTradeAgreement': agreement(view, parties),
      'ram:ApplicableHeaderTradeDelivery': delivery(view),
      'ram:ApplicableHeaderTradeSettlement': settlement(view),
    },
  };
  const xml = builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'rsm:CrossIndustryInvoice': { ...NAMESPACES, ...document },
  });
  return { xml };
}

/** What EN 16931 needs that the invoice or the settings do not give, or cannot say. */
function problemsOf(view: DocumentView, { seller }: EinvoiceParties): EinvoiceProblems {
  const problems: EinvoiceProblems = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (view.kind !== 'invoice') add('kind', 'only invoices have an e-invoice so far');
  if (view.mark === 'draft') add('draft', 'a draft has no e-invoice until it is issued');
  if (minorUnits(view.currency) > 2) {
    add('currency', `EN 16931 amounts have at most 2 decimals; ${view.currency} has 3`);
  }
  if (view.pricesIncludeTax) {
    add('prices_include_tax', 'an e-invoice of gross prices is not built yet');
  }
  view.lines.forEach((line, index) => {
    if ((line.taxes ?? []).length !== 1) {
      add(`items.${index}.taxes`, 'an e-invoice line carries exactly one VAT (EN 16931 BT-151)');
    }
  });
  const groups = breakdownOf(view);
  const keys = groups.map((group) => `${group.category} ${group.rate}`);
  if (new Set(keys).size !== keys.length) {
    add('tax_breakdown', 'two taxes of one category and rate under different names');
  }
  if (!seller.country) add('company.country', 'COMPANY_COUNTRY is required (BT-40)');
  if (!view.customer.country) add('customer_country', "the client's country is required (BT-55)");
  const categories = new Set(groups.map((group) => group.category));
  if (categories.has('O') && categories.size > 1) {
    add('tax_breakdown', 'a document outside the scope of VAT (O) has no other category');
  } else if (!categories.has('O') && vatIdentifier(seller.taxId) === null) {
    add(
      'company.tax_id',
      'COMPANY_TAX_ID must be a VAT identifier with its country prefix (BT-31)',
    );
  }
  if (categories.has('O') && seller.registration.trim() === '') {
    // BR-CO-26: without a VAT identifier the seller is known by its legal registration (BT-30).
    add('company.registration', 'COMPANY_REGISTRATION is required outside the scope of VAT');
  }
  if (categories.has('K') && !view.supplyDate && !view.periodStart) {
    add('supply_date', 'an intra-community supply states its date of supply or period (BR-IC-11)');
  }
  if (
    (categories.has('AE') || categories.has('K')) &&
    vatIdentifier(view.customer.taxId ?? '') === null
  ) {
    add(
      'customer_tax_id',
      "reverse charge and intra-community supply need the buyer's VAT identifier (BT-48)",
    );
  }
  return problems;
}

/** The breakdown as printed (a view made now always has one; one queued before breakdowns did not). */
function breakdownOf(view: DocumentView): DocumentViewTaxGroup[] {
  return view.taxBreakdown ?? [];
}

function lineItem(line: DocumentViewLine, index: number, currency: string): Node {
  const [tax] = line.taxes ?? [];
  const discount = new Decimal(line.discount ?? '0');
  return {
    'ram:AssociatedDocumentLineDocument': { 'ram:LineID': String(index + 1) },
    'ram:SpecifiedTradeProduct': { 'ram:Name': text(line.description) },
    'ram:SpecifiedLineTradeAgreement': {
      'ram:NetPriceProductTradePrice': { 'ram:ChargeAmount': line.rate },
    },
    'ram:SpecifiedLineTradeDelivery': {
      'ram:BilledQuantity': { '#text': line.quantity, '@_unitCode': line.unit ?? 'C62' },
    },
    'ram:SpecifiedLineTradeSettlement': {
      'ram:ApplicableTradeTax': {
        'ram:TypeCode': 'VAT',
        'ram:CategoryCode': tax.category,
        'ram:RateApplicablePercent': rateOf(tax),
      },
      'ram:SpecifiedTradeAllowanceCharge': discount.isZero()
        ? undefined
        : allowance(discount, currency, line.discountPercent, discount.plus(line.amount)),
      'ram:SpecifiedTradeSettlementLineMonetarySummation': { 'ram:LineTotalAmount': line.amount },
    },
  };
}

/** An allowance (a discount): its amount, and the percent of `basis` it was given as. */
function allowance(
  amount: Decimal,
  currency: string,
  percent: string | undefined,
  basis: Decimal,
): Node {
  return {
    'ram:ChargeIndicator': { 'udt:Indicator': 'false' },
    'ram:CalculationPercent': percent,
    'ram:BasisAmount': percent === undefined ? undefined : money(basis, currency),
    'ram:ActualAmount': money(amount, currency),
    'ram:Reason': 'Discount',
  };
}

function agreement(view: DocumentView, { seller, buyerAddress }: EinvoiceParties): Node {
  const outsideVat = breakdownOf(view).some((group) => group.category === 'O');
  return {
    'ram:BuyerReference': view.buyerReference ? text(view.buyerReference) : undefined,
    'ram:SellerTradeParty': party({
      registration: seller.registration,
      name: seller.name,
      address: seller.address,
      country: seller.country ?? '',
      einvoiceAddress: seller.einvoiceAddress ?? '',
      // BR-O-2: a document outside the scope of VAT names no VAT identifier.
      taxId: outsideVat ? '' : seller.taxId,
    }),
    'ram:BuyerTradeParty': party({
      registration: '',
      name: view.customer.name,
      address: view.customer.address,
      country: view.customer.country ?? '',
      einvoiceAddress: buyerAddress,
      taxId: outsideVat ? '' : (view.customer.taxId ?? ''),
    }),
    'ram:BuyerOrderReferencedDocument': view.orderReference
      ? { 'ram:IssuerAssignedID': text(view.orderReference) }
      : undefined,
  };
}

function party(details: {
  /** BT-30, the seller's legal registration (COMPANY_REGISTRATION); '' for none. */
  registration: string;
  name: string;
  address: string;
  country: string;
  einvoiceAddress: string;
  taxId: string;
}): Node {
  const address = parseEinvoiceAddress(details.einvoiceAddress);
  // A VAT identifier (BT-31, BT-48) when it is one; another tax number is the seller's BT-32.
  const vatId = vatIdentifier(details.taxId);
  const registration = vatId
    ? { '#text': vatId, '@_schemeID': 'VA' }
    : details.taxId.trim() === ''
      ? undefined
      : { '#text': text(details.taxId), '@_schemeID': 'FC' };
  return {
    'ram:Name': text(details.name),
    'ram:SpecifiedLegalOrganization':
      details.registration.trim() === '' ? undefined : { 'ram:ID': text(details.registration) },
    'ram:PostalTradeAddress': {
      'ram:LineOne': details.address.trim() === '' ? undefined : text(details.address),
      'ram:CountryID': details.country,
    },
    'ram:URIUniversalCommunication': address
      ? { 'ram:URIID': { '#text': address.identifier, '@_schemeID': address.scheme } }
      : undefined,
    'ram:SpecifiedTaxRegistration': registration && { 'ram:ID': registration },
  };
}

function delivery(view: DocumentView): Node {
  const intraCommunity = breakdownOf(view).some((group) => group.category === 'K');
  return {
    // BT-80, BR-IC-12: where an intra-community supply went (the buyer's country).
    'ram:ShipToTradeParty': intraCommunity
      ? { 'ram:PostalTradeAddress': { 'ram:CountryID': view.customer.country } }
      : undefined,
    'ram:ActualDeliverySupplyChainEvent': view.supplyDate
      ? { 'ram:OccurrenceDateTime': dateTime(view.supplyDate) }
      : undefined,
  };
}

function settlement(view: DocumentView): Node {
  const { currency } = view;
  const groups = breakdownOf(view);
  const shares = discountShares(view, groups);
  const discount = new Decimal(view.discount ?? '0');
  const balanceDue = view.balanceDue ?? view.total;
  const paid = new Decimal(view.amountPaid ?? '0');
  return {
    'ram:InvoiceCurrencyCode': view.currency,
    'ram:ApplicableTradeTax': groups.map((group) => ({
      'ram:CalculatedAmount': group.taxAmount,
      'ram:TypeCode': 'VAT',
      'ram:ExemptionReason': group.exemptionReason ? text(group.exemptionReason) : undefined,
      'ram:BasisAmount': group.taxableAmount,
      'ram:CategoryCode': group.category,
      'ram:ExemptionReasonCode': group.exemptionCode || undefined,
      'ram:RateApplicablePercent': rateOf(group),
    })),
    'ram:BillingSpecifiedPeriod':
      view.periodStart && view.periodEnd
        ? {
            'ram:StartDateTime': dateTime(view.periodStart),
            'ram:EndDateTime': dateTime(view.periodEnd),
          }
        : undefined,
    'ram:SpecifiedTradeAllowanceCharge': groups.flatMap((group, index) =>
      shares[index].share.isZero()
        ? []
        : [
            {
              ...allowance(
                shares[index].share,
                currency,
                view.discountPercent,
                shares[index].basis,
              ),
              'ram:CategoryTradeTax': {
                'ram:TypeCode': 'VAT',
                'ram:CategoryCode': group.category,
                'ram:RateApplicablePercent': rateOf(group),
              },
            },
          ],
    ),
    'ram:SpecifiedTradePaymentTerms': view.dueDate
      ? { 'ram:DueDateDateTime': dateTime(view.dueDate) }
      : undefined,
    'ram:SpecifiedTradeSettlementHeaderMonetarySummation': {
      'ram:LineTotalAmount': view.subTotal,
      'ram:AllowanceTotalAmount': discount.isZero() ? undefined : view.discount,
      'ram:TaxBasisTotalAmount': money(new Decimal(view.subTotal).minus(discount), currency),
      'ram:TaxTotalAmount': { '#text': view.taxAmount, '@_currencyID': currency },
      'ram:GrandTotalAmount': view.total,
      'ram:TotalPrepaidAmount': paid.isZero() ? undefined : view.amountPaid,
      'ram:DuePayableAmount': balanceDue,
    },
  };
}

/**
 * The document discount's share of each group (BT-92 per VAT group, of BT-93, what its lines
 * come to): what its lines come to less its taxable amount. With one VAT per line, and one group per category and rate (both
 * checked first), a group is one of the sets the discount was shared over, so the shares are
 * the service's own and add up to the discount.
 */
function discountShares(
  view: DocumentView,
  groups: DocumentViewTaxGroup[],
): Array<{ basis: Decimal; share: Decimal }> {
  return groups.map((group) => {
    const lines = view.lines.filter((line) =>
      (line.taxes ?? []).some((tax) => tax.category === group.category && tax.rate === group.rate),
    );
    const basis = sum(lines.map((line) => new Decimal(line.amount)));
    return { basis, share: basis.minus(group.taxableAmount) };
  });
}

/** BT-96, BT-119, BT-152: a rate, which "not subject to VAT" (O) does not have (BR-O-5, -6, -9). */
function rateOf(tax: { category: string; rate: string }): string | undefined {
  return tax.category === 'O' ? undefined : tax.rate;
}

function money(value: Decimal, currency: string): string {
  return value.toFixed(minorUnits(currency));
}

/** A date as CII writes it: `YYYYMMDD`, format 102. */
function dateTime(date: string): Node {
  return { 'udt:DateTimeString': { '#text': date.replaceAll('-', ''), '@_format': '102' } };
}

/** Text as XML 1.0 can carry it: characters it forbids (controls, lone surrogates) as spaces. */
function text(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu, ' ');
}
