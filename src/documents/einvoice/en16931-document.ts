import { minorUnits } from '../../common/money/currency';
import { Decimal, sum } from '../../common/money/decimal';
import { parseEinvoiceAddress } from '../../common/einvoice-codes';
import { Issuer, paymentTermsIn } from '../../document-vocabulary/issuer';
import type { DocumentView, DocumentViewLine, DocumentViewTaxGroup } from '../document-view';
import { EinvoiceProfile, profileBetween } from './einvoice-profile';
import type {
  En16931Allowance,
  En16931Document,
  En16931Line,
  En16931Party,
  En16931Payment,
  En16931Vat,
} from './en16931-model';
import { isInGroup, NetLine, netLinesOf } from './net-equivalent';
import { postalAddressOf } from './postal-address';
import { peppolIdentifierProblem } from './peppol-identifiers';

/*
 * An invoice or a credit note as EN 16931 business terms, from the printed view: every figure
 * is the one the API answers and the PDF prints. Worked out: each VAT group's share of the
 * document discount (what its lines come to less its taxable amount), a credit note's amount
 * due (its total less what it refunded), and a document of gross prices' net lines
 * (net-equivalent.ts). Or the problems by field, all at once.
 */

/** What the e-invoice needs beyond the view: the issuer, and where the buyer receives it. */
export interface EinvoiceParties {
  seller: Issuer;
  /** The client's `einvoice_address` ('' for none). */
  buyerAddress: string;
}

/** Each missing or unsupported piece, by the field that would supply it (the 422's `errors`). */
export type EinvoiceProblems = Record<string, string[]>;

/** A VAT identifier starts with its country's code (BR-CO-9; Greece writes EL). */
const VAT_ID = /^[A-Z]{2}[0-9A-Za-z+*.]{2,}$/;

/** A tax number as a VAT identifier, written without its spaces (`DE 123 456 789`); or null. */
function vatIdentifier(taxId: string): string | null {
  const compact = taxId.replace(/\s+/g, '');
  return VAT_ID.test(compact) ? compact : null;
}

/** How far Peppol lets a stated amount be from its calculation (its rules' `u:slack`). */
const CALCULATION_TOLERANCE = new Decimal('0.02');

/** An IBAN's shape (ISO 13616): country, check digits, up to 30 letters and digits. */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

export function en16931Document(
  view: DocumentView,
  parties: EinvoiceParties,
  format: EinvoiceProfile,
): { document: En16931Document } | { problems: EinvoiceProblems } {
  const profile = profileBetween(format, parties.seller.country ?? '', view.customer.country ?? '');
  const problems = problemsOf(view, parties, profile);
  if (Object.keys(problems).length > 0) return { problems };
  return { document: documentOf(view, parties, profile) };
}

/** What EN 16931 and the profile need that the document or the settings do not give. */
function problemsOf(
  view: DocumentView,
  { seller, buyerAddress }: EinvoiceParties,
  profile: EinvoiceProfile,
): EinvoiceProblems {
  const problems: EinvoiceProblems = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (view.kind === 'estimate') add('kind', 'an estimate has no e-invoice');
  if (view.mark === 'draft') add('draft', 'a draft has no e-invoice until it is issued');
  if (minorUnits(view.currency) > 2) {
    add('currency', `EN 16931 amounts have at most 2 decimals; ${view.currency} has 3`);
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
  for (const group of groups) {
    // BR-CO-17, BR-S-09: within a whole unit of taxable × rate, rounded to 2 decimals. With
    // gross prices and no minor digits a group at 99 % or more can be a whole unit off.
    const calculated = new Decimal(group.taxableAmount)
      .times(group.rate)
      .dividedBy(100)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    if (calculated.minus(group.taxAmount).abs().gte(1)) {
      add(
        'tax_breakdown',
        `the ${group.rate} % group's tax ${group.taxAmount} is a whole unit or more from its taxable amount × rate, ${calculated.toFixed()} (BR-CO-17)`,
      );
    }
  }
  if (!seller.country) add('company.country', 'COMPANY_COUNTRY is required (BT-40)');
  const national = profile.unsupportedSellerCountries?.[seller.country ?? ''];
  if (national !== undefined) {
    add('company.country', `a seller in ${seller.country ?? ''} needs ${national}, not kept yet`);
  }
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
  if (profile.electronicAddresses) {
    if (parseEinvoiceAddress(seller.einvoiceAddress ?? '') === null) {
      add('company.einvoice_address', 'COMPANY_EINVOICE_ADDRESS is required (BT-34)');
    }
    if (parseEinvoiceAddress(buyerAddress) === null) {
      add('client.einvoice_address', "the client's einvoice_address is required (BT-49)");
    }
  }
  if (profile.checkedIdentifiers) {
    for (const [field, text] of [
      ['company.einvoice_address', seller.einvoiceAddress ?? ''],
      ['client.einvoice_address', buyerAddress],
    ]) {
      const address = parseEinvoiceAddress(text);
      const problem = address && peppolIdentifierProblem(address);
      if (problem) add(field, problem);
    }
  }
  // A document of gross prices is written with net lines that meet their amounts exactly.
  if (profile.lineCalculationTolerance && !view.pricesIncludeTax) {
    view.lines.forEach((line, index) => {
      const calculated = new Decimal(line.quantity).times(line.rate).minus(line.discount ?? '0');
      if (calculated.minus(line.amount).abs().gt(CALCULATION_TOLERANCE)) {
        add(
          `items.${index}.rate`,
          `quantity × price less the discount (${calculated.toFixed()}) must come within 0.02 of the line's amount ${line.amount} (PEPPOL-EN16931-R120)`,
        );
      }
    });
  }
  if (profile.buyerOrOrderReference && !view.buyerReference && !view.orderReference) {
    add('buyer_reference', 'a buyer reference or a purchase order is required (BT-10, BT-13)');
  }
  if (profile.buyerReference && !view.buyerReference) {
    add('buyer_reference', 'the buyer reference (Leitweg-ID) is required (BT-10)');
  }
  if (profile.sellerContact) {
    if (seller.name.trim() === '') add('company.name', 'COMPANY_NAME is required (BT-41)');
    if (seller.phone.trim() === '') add('company.phone', 'COMPANY_PHONE is required (BT-42)');
    if (seller.email.trim() === '') add('company.email', 'COMPANY_EMAIL is required (BT-43)');
  }
  if (profile.paymentInstructions && seller.bankAccount.trim() === '') {
    add('company.bank_account', 'COMPANY_BANK_ACCOUNT is required for the payment means (BT-84)');
  }
  if (profile.cityAndPostCode) {
    const needsCity = (address: string) => postalAddressOf(address, '').city === undefined;
    const expected = 'its last line must be the post code and the city (BT-37, BT-38)';
    if (needsCity(seller.address)) add('company.address', `COMPANY_ADDRESS: ${expected}`);
    if (needsCity(view.customer.address)) add('customer_address', expected);
  }
  return problems;
}

function documentOf(
  view: DocumentView,
  { seller, buyerAddress }: EinvoiceParties,
  profile: EinvoiceProfile,
): En16931Document {
  const groups = breakdownOf(view);
  const netLines = netLinesOf(view, groups);
  const allowances = documentAllowances(view, groups, netLines);
  const categories = new Set(groups.map((group) => group.category));
  // BR-O-2 and alike: a document outside the scope of VAT names no VAT identifier.
  const outsideVat = categories.has('O');
  const buyerCountry = view.customer.country ?? '';
  const notes = [view.description, view.reason ?? '', view.note].filter(
    (note) => note.trim() !== '',
  );
  return {
    specification: profile.specification,
    businessProcess: profile.businessProcess,
    number: view.number,
    issueDate: view.issueDate,
    typeCode: view.kind === 'credit_note' ? '381' : '380',
    currency: view.currency,
    dueDate: view.dueDate,
    buyerReference: view.buyerReference || undefined,
    orderReference: view.orderReference || undefined,
    notes: profile.oneNote && notes.length > 1 ? [notes.join('\n\n')] : notes,
    precedingInvoice: view.corrects
      ? { number: view.corrects, issueDate: view.correctsDate }
      : undefined,
    seller: {
      name: seller.name,
      registration: seller.registration.trim() || undefined,
      address: postalAddressOf(seller.address, seller.country ?? ''),
      electronicAddress: parseEinvoiceAddress(seller.einvoiceAddress ?? '') ?? undefined,
      ...(outsideVat ? {} : taxIdentifiers(seller.taxId)),
      contact: sellerContactOf(seller, profile),
    },
    buyer: {
      name: view.customer.name,
      address: postalAddressOf(view.customer.address, buyerCountry),
      electronicAddress: parseEinvoiceAddress(buyerAddress) ?? undefined,
      vatId: outsideVat ? undefined : (vatIdentifier(view.customer.taxId ?? '') ?? undefined),
    },
    supplyDate: view.supplyDate,
    // BT-80, BR-IC-12: where an intra-community supply went, the buyer's address.
    deliverTo: categories.has('K')
      ? postalAddressOf(view.customer.address, buyerCountry)
      : undefined,
    period:
      view.periodStart && view.periodEnd
        ? { start: view.periodStart, end: view.periodEnd }
        : undefined,
    payment: paymentOf(seller),
    paymentTerms: paymentTermsOf(view, seller),
    allowances,
    totals: totalsOf(view, netLines, allowances),
    vatBreakdown: groups.map((group) => ({
      category: group.category,
      // BR-48 lets a group outside the scope of VAT go without its rate; XRechnung asks for
      // it (BR-DE-14), so every profile writes its 0.
      rate: group.category === 'O' ? '0' : group.rate,
      taxableAmount: group.taxableAmount,
      taxAmount: group.taxAmount,
      exemptionReason: group.exemptionReason.trim() || undefined,
      exemptionCode: group.exemptionCode || undefined,
    })),
    lines: view.lines.map((line, index) => lineOf(line, netLines[index], index, view.currency)),
  };
}

/** BT-31 when the tax number is a VAT identifier, else BT-32. */
function taxIdentifiers(taxId: string): Pick<En16931Party, 'vatId' | 'taxRegistration'> {
  const vatId = vatIdentifier(taxId);
  if (vatId !== null) return { vatId };
  return taxId.trim() === '' ? {} : { taxRegistration: taxId.trim() };
}

/** BG-6: the issuer's own name, phone and e-mail, when the profile asks or any is set. */
function sellerContactOf(seller: Issuer, profile: EinvoiceProfile): En16931Party['contact'] {
  const phone = seller.phone.trim() || undefined;
  const email = seller.email.trim() || undefined;
  if (!profile.sellerContact && phone === undefined && email === undefined) return undefined;
  return { name: seller.name, phone, email };
}

/** BG-16: a credit transfer to COMPANY_BANK_ACCOUNT, SEPA (58) when it is an IBAN. */
function paymentOf(seller: Issuer): En16931Payment | undefined {
  const account = seller.bankAccount.replace(/\s+/g, '');
  if (account === '') return undefined;
  return {
    meansCode: IBAN.test(account) ? '58' : '30',
    account,
    bic: seller.bankBic.replace(/\s+/g, '') || undefined,
  };
}

/**
 * BT-20. An invoice's are the issuer's terms in its language. A credit note has no due date,
 * so its terms say how what it owes is settled (BR-CO-25: an amount due needs one or the other).
 */
function paymentTermsOf(view: DocumentView, seller: Issuer): string | undefined {
  if (view.kind === 'credit_note') {
    const settled = new Decimal(view.refunded ?? '0').equals(view.total);
    return settled ? undefined : `Credited against invoice ${view.corrects ?? ''}`.trim();
  }
  return paymentTermsIn(seller, view.locale ?? 'en').trim() || undefined;
}

/** The breakdown as printed (a view made now always has one; one queued before breakdowns did not). */
function breakdownOf(view: DocumentView): DocumentViewTaxGroup[] {
  return view.taxBreakdown ?? [];
}

/** BT-96, BT-119, BT-152: a rate, which "not subject to VAT" (O) does not have. */
function vatOf(tax: { category: string; rate: string }): En16931Vat {
  return tax.category === 'O'
    ? { category: tax.category }
    : { category: tax.category, rate: tax.rate };
}

function lineOf(
  line: DocumentViewLine,
  { price, amount, discount }: NetLine,
  index: number,
  currency: string,
): En16931Line {
  const [tax] = line.taxes ?? [];
  return {
    id: String(index + 1),
    name: line.description,
    quantity: line.quantity,
    unit: line.unit ?? 'C62',
    netPrice: price,
    netAmount: amount,
    allowance: discount.isZero()
      ? undefined
      : allowanceOf(discount, currency, line.discountPercent, discount.plus(amount)),
    vat: vatOf(tax),
  };
}

/**
 * A discount: its amount, and the percent of `basis` it was given as when the amount is that
 * percent to within 0.02 (PEPPOL-EN16931-R040). In a currency without minor digits a rounded
 * percent can be further off (7 % of 150566 JPY is 10539.62, the discount 10540): the amount
 * then stands alone, as EN 16931 allows (BT-94 and BT-93 are optional).
 */
function allowanceOf(
  amount: Decimal,
  currency: string,
  percent: string | undefined,
  basis: Decimal,
): En16931Allowance {
  const asPercent =
    percent !== undefined &&
    basis.times(percent).dividedBy(100).minus(amount).abs().lte(CALCULATION_TOLERANCE);
  return {
    amount: money(amount, currency),
    percent: asPercent ? percent : undefined,
    basis: asPercent ? money(basis, currency) : undefined,
    reason: 'Discount',
  };
}

/**
 * The document discount's share of each group (BT-92 per VAT group, of BT-93, what its net
 * lines come to): what its net lines come to less its taxable amount. With one VAT per line,
 * and one group per category and rate (both checked first), a group is one of the sets the
 * discount was shared over, so with net prices the shares are the service's own and add up to
 * the discount; with gross prices each is its share's net equivalent (net-equivalent.ts).
 */
function documentAllowances(
  view: DocumentView,
  groups: DocumentViewTaxGroup[],
  netLines: NetLine[],
): En16931Document['allowances'] {
  return groups.flatMap((group) => {
    const basis = sum(
      netLines.flatMap((net, index) =>
        isInGroup(view.lines[index], group) ? [new Decimal(net.amount)] : [],
      ),
    );
    const share = basis.minus(group.taxableAmount);
    if (share.isZero()) return [];
    return [
      {
        ...allowanceOf(share, view.currency, view.discountPercent, basis),
        vat: vatOf(group),
      },
    ];
  });
}

/**
 * BG-22. The lines and allowances as written (with net prices the view's sub-total and
 * discount); the tax and the total are the view's. An invoice's amount due is its outstanding
 * balance (BT-113 what was paid and credited). A credit note's BT-113 is what it refunded, and
 * its amount due the rest: the credit the buyer holds against the invoice it corrects
 * (docs/einvoices.md).
 */
function totalsOf(
  view: DocumentView,
  netLines: NetLine[],
  allowances: En16931Document['allowances'],
): En16931Document['totals'] {
  const lineTotal = sum(netLines.map((line) => new Decimal(line.amount)));
  const discount = sum(allowances.map((allowance) => new Decimal(allowance.amount)));
  const prepaid = new Decimal(
    (view.kind === 'credit_note' ? view.refunded : view.amountPaid) ?? '0',
  );
  const duePayable =
    view.kind === 'credit_note'
      ? money(new Decimal(view.total).minus(prepaid), view.currency)
      : (view.balanceDue ?? view.total);
  return {
    lineTotal: money(lineTotal, view.currency),
    allowanceTotal: discount.isZero() ? undefined : money(discount, view.currency),
    taxBasisTotal: money(lineTotal.minus(discount), view.currency),
    taxTotal: view.taxAmount,
    grandTotal: view.total,
    prepaid: prepaid.isZero() ? undefined : money(prepaid, view.currency),
    duePayable,
  };
}

function money(value: Decimal, currency: string): string {
  return value.toFixed(minorUnits(currency));
}
