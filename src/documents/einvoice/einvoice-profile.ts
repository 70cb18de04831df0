/*
 * The profiles (CIUS) of EN 16931 the service writes, each as data: its specification
 * identifier (BT-24), its business process (BT-23), and what it requires beyond the core.
 * Peppol BIS Billing 3.0 and XRechnung 3.0 as their specifications state them
 * (docs/einvoices.md, "What each profile needs").
 */

export interface EinvoiceProfile {
  specification: string;
  businessProcess?: string;
  /** Both electronic addresses, BT-34 and BT-49 (PEPPOL-EN16931-R010, -R020; XRechnung). */
  electronicAddresses: boolean;
  /** The check digits of the identifier schemes the network checks (PEPPOL-COMMON-R040 to -R050). */
  checkedIdentifiers: boolean;
  /** The buyer reference BT-10 or the purchase order BT-13 (PEPPOL-EN16931-R003). */
  buyerOrOrderReference: boolean;
  /** The buyer reference BT-10 itself (BR-DE-15). */
  buyerReference: boolean;
  /** The seller's contact with phone and e-mail (BR-DE-2, -5, -6, -7). */
  sellerContact: boolean;
  /** Payment instructions, a credit transfer (BR-DE-1, -23-a). */
  paymentInstructions: boolean;
  /** City and post code of both parties (BR-DE-3, -4, -8, -9). */
  cityAndPostCode: boolean;
  /** At most one note (PEPPOL-EN16931-R002). */
  oneNote: boolean;
  /**
   * Each line's amount within 0.02 of quantity × price less its discount (PEPPOL-EN16931-R120),
   * which a currency without minor digits misses when the product is no whole amount.
   */
  lineCalculationTolerance: boolean;
  /**
   * Seller countries whose national rules need what the service does not keep (a legal
   * identifier's scheme, a national numbering), by the rules that ask it.
   */
  unsupportedSellerCountries?: Record<string, string>;
  /** What it asks more of a document between two parties of one country (Peppol's DE-R-*). */
  domestic?: { country: string; requires: Partial<EinvoiceProfile> };
}

const CORE: EinvoiceProfile = {
  specification: 'urn:cen.eu:en16931:2017',
  electronicAddresses: false,
  checkedIdentifiers: false,
  buyerOrOrderReference: false,
  buyerReference: false,
  sellerContact: false,
  paymentInstructions: false,
  cityAndPostCode: false,
  oneNote: false,
  lineCalculationTolerance: false,
};

export const EINVOICE_PROFILES = {
  en16931: CORE,
  peppol: {
    ...CORE,
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    businessProcess: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    electronicAddresses: true,
    checkedIdentifiers: true,
    buyerOrOrderReference: true,
    oneNote: true,
    lineCalculationTolerance: true,
    unsupportedSellerCountries: {
      DK: 'the CVR number as the legal identifier, scheme 0184 (DK-R-014)',
      GR: 'the Greek invoice number of six segments and the MARK number (GR-R-001, -004)',
      IS: "the seller's and buyer's Icelandic legal identifiers (IS-R-002, -004)",
      NL: 'the KVK or OIN number as the legal identifier, scheme 0106 or 0190 (NL-R-003)',
    },
    // Between two German parties Peppol applies XRechnung's rules (DE-R-001 to -016).
    domestic: {
      country: 'DE',
      requires: {
        buyerReference: true,
        sellerContact: true,
        paymentInstructions: true,
        cityAndPostCode: true,
      },
    },
  },
  xrechnung: {
    ...CORE,
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    // XRechnung recommends Peppol's billing process as BT-23.
    businessProcess: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
    electronicAddresses: true,
    buyerReference: true,
    sellerContact: true,
    paymentInstructions: true,
    cityAndPostCode: true,
  },
} satisfies Record<string, EinvoiceProfile>;

/** The profile as it applies between the seller's and the buyer's countries. */
export function profileBetween(
  profile: EinvoiceProfile,
  sellerCountry: string,
  buyerCountry: string,
): EinvoiceProfile {
  const { domestic } = profile;
  if (domestic === undefined || sellerCountry !== domestic.country) return profile;
  return buyerCountry === domestic.country ? { ...profile, ...domestic.requires } : profile;
}
