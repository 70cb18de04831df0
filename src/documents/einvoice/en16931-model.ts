import type { EinvoiceAddress } from '../../common/einvoice-codes';

/*
 * An EN 16931 invoice or credit note as its business terms (BT-n, BG-n), the one model both
 * syntaxes (CII and UBL) serialise: every decision about what the document says is taken once,
 * where the model is built (en16931-document.ts), and a syntax only says where each term goes.
 * Amounts are decimal text in the currency's minor digits, as the view prints them.
 */

/** BG-5, BG-8, BG-15: a postal address. */
export interface En16931Address {
  /** BT-35 (also BT-50, BT-75): the street, or the whole address when it cannot be parsed. */
  street?: string;
  /** BT-37, BT-52, BT-77. */
  city?: string;
  /** BT-38, BT-53, BT-78. */
  postCode?: string;
  /** BT-40, BT-55, BT-80: ISO 3166-1 alpha-2. */
  country: string;
}

/** BG-4 (the seller) or BG-7 (the buyer). */
export interface En16931Party {
  /** BT-27, BT-44. */
  name: string;
  /** BT-30, BT-47: the legal registration. */
  registration?: string;
  address: En16931Address;
  /** BT-34, BT-49. */
  electronicAddress?: EinvoiceAddress;
  /** BT-31, BT-48. */
  vatId?: string;
  /** BT-32: the seller's tax number when it is no VAT identifier. */
  taxRegistration?: string;
  /** BG-6: the seller's contact (BT-41 to BT-43). */
  contact?: { name: string; phone?: string; email?: string };
}

/** A VAT category and its rate; "not subject to VAT" (O) has no rate (BR-O-5, -6, -9). */
export interface En16931Vat {
  /** UNCL 5305 (S, Z, E, AE, K, G, O, L, M). */
  category: string;
  rate?: string;
}

/** BG-20 (document level, with its VAT) or BG-27 (line level): a discount. */
export interface En16931Allowance {
  /** BT-92, BT-136. */
  amount: string;
  /** BT-94, BT-138, with the amount it is a percent of (BT-93, BT-137). */
  percent?: string;
  basis?: string;
  /** BT-97, BT-139. */
  reason: string;
}

/** BG-25: one line. */
export interface En16931Line {
  /** BT-126. */
  id: string;
  /** BT-153. */
  name: string;
  /** BT-129 and its UN/ECE Rec 20 unit, BT-130. */
  quantity: string;
  unit: string;
  /** BT-146: the net price. */
  netPrice: string;
  /** BT-131: quantity × price less the line's allowance. */
  netAmount: string;
  allowance?: En16931Allowance;
  /** BT-151, BT-152. */
  vat: En16931Vat;
}

/** BG-23: one VAT breakdown group. */
export interface En16931VatGroup extends En16931Vat {
  /** BT-116, BT-117. */
  taxableAmount: string;
  taxAmount: string;
  /** BT-120, BT-121. */
  exemptionReason?: string;
  exemptionCode?: string;
}

/** BG-22: the document totals. */
export interface En16931Totals {
  /** BT-106: the lines' net amounts. */
  lineTotal: string;
  /** BT-107: the document allowances. */
  allowanceTotal?: string;
  /** BT-109, BT-110, BT-112. */
  taxBasisTotal: string;
  taxTotal: string;
  grandTotal: string;
  /** BT-113: paid (an invoice) or refunded (a credit note) already. */
  prepaid?: string;
  /** BT-115. */
  duePayable: string;
}

/** BG-16 and BG-17: a credit transfer to the seller's account. */
export interface En16931Payment {
  /** BT-81: 58 SEPA credit transfer (to an IBAN), 30 credit transfer (to another account). */
  meansCode: '58' | '30';
  /** BT-84. */
  account: string;
  /** BT-86: the bank's BIC. */
  bic?: string;
}

export interface En16931Document {
  /** BT-24 and BT-23: the specification (profile) and business process identifiers. */
  specification: string;
  businessProcess?: string;
  /** BT-1, BT-2. */
  number: string;
  issueDate: string;
  /** BT-3: 380 commercial invoice, 381 credit note. */
  typeCode: '380' | '381';
  /** BT-5. */
  currency: string;
  /** BT-9. */
  dueDate?: string;
  /** BT-10, BT-13. */
  buyerReference?: string;
  orderReference?: string;
  /** BT-22. */
  notes: string[];
  /** BG-3: the invoice a credit note corrects (BT-25, BT-26). */
  precedingInvoice?: { number: string; issueDate?: string };
  seller: En16931Party;
  buyer: En16931Party;
  /** BT-72: the date of supply. */
  supplyDate?: string;
  /** BG-15: where an intra-community supply went (BT-80, BR-IC-12). */
  deliverTo?: En16931Address;
  /** BG-14: the service period. */
  period?: { start: string; end: string };
  payment?: En16931Payment;
  /** BT-20. */
  paymentTerms?: string;
  /** BG-20: one discount per VAT group. */
  allowances: Array<En16931Allowance & { vat: En16931Vat }>;
  totals: En16931Totals;
  vatBreakdown: En16931VatGroup[];
  lines: En16931Line[];
}
