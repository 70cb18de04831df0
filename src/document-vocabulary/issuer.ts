import type { DocumentLocale } from './document-locale';

/** The issuer block, from the COMPANY_* and PAYMENT_TERMS* settings ('' when not set). */
export interface Issuer {
  name: string;
  address: string;
  /** ISO 3166-1 alpha-2, printed by name in the document's language; '' or absent: none. */
  country?: string;
  /** BT-34, where it receives e-invoices: `scheme:identifier` (EAS); '' or absent: none. */
  einvoiceAddress?: string;
  email: string;
  taxId: string;
  phone: string;
  website: string;
  /** Company registration (register and number), printed as given. */
  registration: string;
  /** IBAN or account number. */
  bankAccount: string;
  bankBic: string;
  bankName: string;
  /** Printed text, e.g. "Payable within 30 days"; what a locale without its own prints. */
  paymentTerms: string;
  /**
   * The terms written for one locale (PAYMENT_TERMS_DE, …); a locale absent or '' prints
   * `paymentTerms`. Read through paymentTermsIn.
   */
  paymentTermsByLocale?: Partial<Record<DocumentLocale, string>>;
}

/**
 * The issuer's payment terms in a locale: its own (PAYMENT_TERMS_DE, …) when set, else
 * PAYMENT_TERMS; '' when neither is.
 */
export function paymentTermsIn(issuer: Issuer, locale: DocumentLocale): string {
  return issuer.paymentTermsByLocale?.[locale] || issuer.paymentTerms;
}
