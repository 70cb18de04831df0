import type {
  En16931Address,
  En16931Allowance,
  En16931Document,
  En16931Line,
  En16931Party,
  En16931Vat,
} from './en16931-model';
import { buildXml, optionalText, XmlNode, xmlText } from './xml-writing';

/*
 * The EN 16931 model in OASIS UBL 2.1, an Invoice (380) or a CreditNote (381), as the CEN/TC
 * 434 syntax binding places each business term. Elements in the order the UBL 2.1 schemas
 * want them (Invoice and CreditNote differ only where noted).
 */

const NAMESPACES = {
  '@_xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  '@_xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** What differs between the two documents: root, namespace, type code and quantity names. */
const DOCUMENTS = {
  '380': {
    root: 'Invoice',
    namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeCode: 'cbc:InvoiceTypeCode',
    line: 'cac:InvoiceLine',
    quantity: 'cbc:InvoicedQuantity',
  },
  '381': {
    root: 'CreditNote',
    namespace: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
    typeCode: 'cbc:CreditNoteTypeCode',
    line: 'cac:CreditNoteLine',
    quantity: 'cbc:CreditedQuantity',
  },
} as const;

export function ublXml(document: En16931Document): string {
  const kind = DOCUMENTS[document.typeCode];
  const amount = (value: string | undefined) =>
    value === undefined ? undefined : { '#text': value, '@_currencyID': document.currency };
  const { totals } = document;
  return buildXml(kind.root, {
    '@_xmlns': kind.namespace,
    ...NAMESPACES,
    'cbc:CustomizationID': document.specification,
    'cbc:ProfileID': document.businessProcess,
    'cbc:ID': xmlText(document.number),
    'cbc:IssueDate': document.issueDate,
    // A CreditNote has no DueDate of its own (BT-9 would go in its PaymentMeans).
    ...(document.typeCode === '380' ? { 'cbc:DueDate': document.dueDate } : {}),
    [kind.typeCode]: document.typeCode,
    'cbc:Note': document.notes.map(xmlText),
    'cbc:DocumentCurrencyCode': document.currency,
    'cbc:BuyerReference': optionalText(document.buyerReference),
    'cac:InvoicePeriod': document.period && {
      'cbc:StartDate': document.period.start,
      'cbc:EndDate': document.period.end,
    },
    'cac:OrderReference': document.orderReference && {
      'cbc:ID': xmlText(document.orderReference),
    },
    'cac:BillingReference': document.precedingInvoice && {
      'cac:InvoiceDocumentReference': {
        'cbc:ID': xmlText(document.precedingInvoice.number),
        'cbc:IssueDate': document.precedingInvoice.issueDate,
      },
    },
    'cac:AccountingSupplierParty': { 'cac:Party': party(document.seller) },
    'cac:AccountingCustomerParty': { 'cac:Party': party(document.buyer) },
    'cac:Delivery':
      document.supplyDate || document.deliverTo
        ? {
            'cbc:ActualDeliveryDate': document.supplyDate,
            'cac:DeliveryLocation': document.deliverTo && {
              'cac:Address': postalAddress(document.deliverTo),
            },
          }
        : undefined,
    'cac:PaymentMeans': document.payment && {
      'cbc:PaymentMeansCode': document.payment.meansCode,
      'cac:PayeeFinancialAccount': {
        'cbc:ID': xmlText(document.payment.account),
        'cac:FinancialInstitutionBranch': document.payment.bic && {
          'cbc:ID': document.payment.bic,
        },
      },
    },
    'cac:PaymentTerms': document.paymentTerms && { 'cbc:Note': xmlText(document.paymentTerms) },
    'cac:AllowanceCharge': document.allowances.map((each) => ({
      ...allowance(each, amount),
      'cac:TaxCategory': taxCategory(each.vat),
    })),
    'cac:TaxTotal': {
      'cbc:TaxAmount': amount(totals.taxTotal),
      'cac:TaxSubtotal': document.vatBreakdown.map((group) => ({
        'cbc:TaxableAmount': amount(group.taxableAmount),
        'cbc:TaxAmount': amount(group.taxAmount),
        'cac:TaxCategory': taxCategory(group, {
          'cbc:TaxExemptionReasonCode': group.exemptionCode,
          'cbc:TaxExemptionReason': optionalText(group.exemptionReason),
        }),
      })),
    },
    'cac:LegalMonetaryTotal': {
      'cbc:LineExtensionAmount': amount(totals.lineTotal),
      'cbc:TaxExclusiveAmount': amount(totals.taxBasisTotal),
      'cbc:TaxInclusiveAmount': amount(totals.grandTotal),
      'cbc:AllowanceTotalAmount': amount(totals.allowanceTotal),
      'cbc:PrepaidAmount': amount(totals.prepaid),
      'cbc:PayableAmount': amount(totals.duePayable),
    },
    [kind.line]: document.lines.map((line) => lineOf(line, kind.quantity, amount)),
  });
}

type Amount = (value: string | undefined) => XmlNode | undefined;

function lineOf(line: En16931Line, quantityName: string, amount: Amount): XmlNode {
  return {
    'cbc:ID': line.id,
    [quantityName]: { '#text': line.quantity, '@_unitCode': line.unit },
    'cbc:LineExtensionAmount': amount(line.netAmount),
    'cac:AllowanceCharge': line.allowance && allowance(line.allowance, amount),
    'cac:Item': {
      'cbc:Name': xmlText(line.name),
      'cac:ClassifiedTaxCategory': taxCategory(line.vat),
    },
    'cac:Price': { 'cbc:PriceAmount': amount(line.netPrice) },
  };
}

function allowance(discount: En16931Allowance, amount: Amount): XmlNode {
  return {
    'cbc:ChargeIndicator': 'false',
    'cbc:AllowanceChargeReason': xmlText(discount.reason),
    'cbc:MultiplierFactorNumeric': discount.percent,
    'cbc:Amount': amount(discount.amount),
    'cbc:BaseAmount': amount(discount.basis),
  };
}

/** A VAT category (cac:TaxCategory, cac:ClassifiedTaxCategory), with what a group adds. */
function taxCategory(vat: En16931Vat, exemption: XmlNode = {}): XmlNode {
  return {
    'cbc:ID': vat.category,
    'cbc:Percent': vat.rate,
    ...exemption,
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  };
}

function party(details: En16931Party): XmlNode {
  const { contact, electronicAddress } = details;
  return {
    'cbc:EndpointID': electronicAddress && {
      '#text': electronicAddress.identifier,
      '@_schemeID': electronicAddress.scheme,
    },
    'cac:PostalAddress': postalAddress(details.address),
    'cac:PartyTaxScheme': [
      ...(details.vatId ? [partyTaxScheme(details.vatId, 'VAT')] : []),
      ...(details.taxRegistration ? [partyTaxScheme(xmlText(details.taxRegistration), 'FC')] : []),
    ],
    'cac:PartyLegalEntity': {
      'cbc:RegistrationName': xmlText(details.name),
      'cbc:CompanyID': optionalText(details.registration),
    },
    'cac:Contact': contact && {
      'cbc:Name': xmlText(contact.name),
      'cbc:Telephone': optionalText(contact.phone),
      'cbc:ElectronicMail': optionalText(contact.email),
    },
  };
}

function partyTaxScheme(companyId: string, scheme: string): XmlNode {
  return { 'cbc:CompanyID': companyId, 'cac:TaxScheme': { 'cbc:ID': scheme } };
}

function postalAddress(address: En16931Address): XmlNode {
  return {
    'cbc:StreetName': optionalText(address.street),
    'cbc:CityName': optionalText(address.city),
    'cbc:PostalZone': optionalText(address.postCode),
    'cac:Country': { 'cbc:IdentificationCode': address.country },
  };
}
