import type { DocumentClient } from '../../clients/clients.service';
import { DomainException } from '../../common/domain.exception';
import { Decimal } from '../../common/money/decimal';
import { dateOfSupply, defaultTax, pricedWithinLimit } from '../../documents/domain/document-draft';
import { DocumentTotals, LineInput } from '../../documents/domain/document-totals';
import type { DocumentTermsInputDto } from '../../documents/dto/document-input.dto';

/** What a credit note takes from the invoice it corrects. */
export interface CorrectedInvoice {
  id: number;
  invoiceNo: string;
  currency: string;
  taxRate: Decimal;
  taxName: string;
  pricesIncludeTax: boolean;
  issueDate: string;
}

/** The inputs of a credit note, its lines read (draftLines). */
export interface CreditNoteFields extends Omit<DocumentTermsInputDto, 'prices_include_tax'> {
  items: LineInput[];
  issue_date?: string;
  reason?: string;
  note?: string;
}

/** Everything a credit note writes, worked out and checked, but its ledger rules. */
export interface CreditNoteDraft extends DocumentTotals {
  invoiceId: number;
  invoiceNo: string;
  clientId: number;
  customerName: string;
  customerPhone: string;
  customerAddress: string;
  customerTaxId: string;
  customerCountry: string;
  currency: string;
  taxRate: Decimal;
  taxName: string;
  discountPercent: Decimal | null;
  pricesIncludeTax: boolean;
  supplyDate: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  issueDate: string;
  reason: string;
  note: string;
}

/**
 * docs/corrections.md, credit notes: priced by the invoice rules at the invoice's currency,
 * default tax and inclusive or exclusive prices; the customer copied from the invoice's client as it is now; issued today unless told,
 * never before the invoice it corrects.
 */
export function draftCreditNote(
  input: CreditNoteFields,
  invoice: CorrectedInvoice,
  client: DocumentClient,
  today: string,
): CreditNoteDraft {
  const issueDate = input.issue_date ?? today;
  if (issueDate < invoice.issueDate) {
    throw DomainException.invalidField(
      'issue_date',
      `issue_date must not be before the invoice’s issue_date ${invoice.issueDate}`,
    );
  }
  const discount = {
    discountPercent: input.discount_percent ?? null,
    discountAmount: input.discount_amount ?? null,
  };
  return {
    ...pricedWithinLimit(input.items, {
      currency: invoice.currency,
      defaultTax: defaultTax(invoice.taxRate, invoice.taxName),
      ...discount,
      pricesIncludeTax: invoice.pricesIncludeTax,
    }),
    invoiceId: invoice.id,
    invoiceNo: invoice.invoiceNo,
    clientId: client.id,
    customerName: client.names,
    customerPhone: client.phone,
    customerAddress: client.address,
    customerTaxId: client.taxId,
    customerCountry: client.country,
    currency: invoice.currency,
    taxRate: invoice.taxRate,
    taxName: invoice.taxName,
    discountPercent: discount.discountPercent,
    pricesIncludeTax: invoice.pricesIncludeTax,
    ...dateOfSupply(input, undefined),
    issueDate,
    reason: input.reason ?? '',
    note: input.note ?? '',
  };
}
