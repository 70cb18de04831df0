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
 * The EN 16931 model in UN/CEFACT CII D16B (the syntax of Factur-X and XRechnung's CII
 * flavour), as the CEN/TC 434 syntax binding places each business term. Elements in the
 * order the schema wants them.
 */

const NAMESPACES = {
  '@_xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  '@_xmlns:ram':
    'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  '@_xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  '@_xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

export function ciiXml(document: En16931Document): string {
  return buildXml('rsm:CrossIndustryInvoice', {
    ...NAMESPACES,
    'rsm:ExchangedDocumentContext': {
      'ram:BusinessProcessSpecifiedDocumentContextParameter': document.businessProcess && {
        'ram:ID': document.businessProcess,
      },
      'ram:GuidelineSpecifiedDocumentContextParameter': { 'ram:ID': document.specification },
    },
    'rsm:ExchangedDocument': {
      'ram:ID': xmlText(document.number),
      'ram:TypeCode': document.typeCode,
      'ram:IssueDateTime': dateTime(document.issueDate),
      'ram:IncludedNote': document.notes.map((note) => ({ 'ram:Content': xmlText(note) })),
    },
    'rsm:SupplyChainTradeTransaction': {
      'ram:IncludedSupplyChainTradeLineItem': document.lines.map(lineItem),
      'ram:ApplicableHeaderTradeAgreement': agreement(document),
      'ram:ApplicableHeaderTradeDelivery': delivery(document),
      'ram:ApplicableHeaderTradeSettlement': settlement(document),
    },
  });
}

function lineItem(line: En16931Line): XmlNode {
  return {
    'ram:AssociatedDocumentLineDocument': { 'ram:LineID': line.id },
    'ram:SpecifiedTradeProduct': { 'ram:Name': xmlText(line.name) },
    'ram:SpecifiedLineTradeAgreement': {
      'ram:NetPriceProductTradePrice': { 'ram:ChargeAmount': line.netPrice },
    },
    'ram:SpecifiedLineTradeDelivery': {
      'ram:BilledQuantity': { '#text': line.quantity, '@_unitCode': line.unit },
    },
    'ram:SpecifiedLineTradeSettlement': {
      'ram:ApplicableTradeTax': tradeTax(line.vat),
      'ram:SpecifiedTradeAllowanceCharge': line.allowance && allowance(line.allowance),
      'ram:SpecifiedTradeSettlementLineMonetarySummation': {
        'ram:LineTotalAmount': line.netAmount,
      },
    },
  };
}

function tradeTax(vat: En16931Vat): XmlNode {
  return {
    'ram:TypeCode': 'VAT',
    'ram:CategoryCode': vat.category,
    'ram:RateApplicablePercent': vat.rate,
  };
}

function allowance(discount: En16931Allowance): XmlNode {
  return {
    'ram:ChargeIndicator': { 'udt:Indicator': 'false' },
    'ram:CalculationPercent': discount.percent,
    'ram:BasisAmount': discount.basis,
    'ram:ActualAmount': discount.amount,
    'ram:Reason': xmlText(discount.reason),
  };
}

function agreement(document: En16931Document): XmlNode {
  return {
    'ram:BuyerReference': optionalText(document.buyerReference),
    'ram:SellerTradeParty': party(document.seller),
    'ram:BuyerTradeParty': party(document.buyer),
    'ram:BuyerOrderReferencedDocument': document.orderReference && {
      'ram:IssuerAssignedID': xmlText(document.orderReference),
    },
  };
}

function party(details: En16931Party): XmlNode {
  const { contact, electronicAddress } = details;
  return {
    'ram:Name': xmlText(details.name),
    'ram:SpecifiedLegalOrganization': details.registration && {
      'ram:ID': xmlText(details.registration),
    },
    'ram:DefinedTradeContact': contact && {
      'ram:PersonName': xmlText(contact.name),
      'ram:TelephoneUniversalCommunication': contact.phone && {
        'ram:CompleteNumber': xmlText(contact.phone),
      },
      'ram:EmailURIUniversalCommunication': contact.email && {
        'ram:URIID': xmlText(contact.email),
      },
    },
    'ram:PostalTradeAddress': postalAddress(details.address),
    'ram:URIUniversalCommunication': electronicAddress && {
      'ram:URIID': {
        '#text': electronicAddress.identifier,
        '@_schemeID': electronicAddress.scheme,
      },
    },
    'ram:SpecifiedTaxRegistration': [
      ...(details.vatId ? [{ 'ram:ID': { '#text': details.vatId, '@_schemeID': 'VA' } }] : []),
      ...(details.taxRegistration
        ? [{ 'ram:ID': { '#text': xmlText(details.taxRegistration), '@_schemeID': 'FC' } }]
        : []),
    ],
  };
}

function postalAddress(address: En16931Address): XmlNode {
  return {
    'ram:PostcodeCode': optionalText(address.postCode),
    'ram:LineOne': optionalText(address.street),
    'ram:CityName': optionalText(address.city),
    'ram:CountryID': address.country,
  };
}

function delivery(document: En16931Document): XmlNode {
  return {
    'ram:ShipToTradeParty': document.deliverTo && {
      'ram:PostalTradeAddress': postalAddress(document.deliverTo),
    },
    'ram:ActualDeliverySupplyChainEvent': document.supplyDate && {
      'ram:OccurrenceDateTime': dateTime(document.supplyDate),
    },
  };
}

function settlement(document: En16931Document): XmlNode {
  const { payment, totals, currency } = document;
  return {
    'ram:InvoiceCurrencyCode': currency,
    'ram:SpecifiedTradeSettlementPaymentMeans': payment && {
      'ram:TypeCode': payment.meansCode,
      'ram:PayeePartyCreditorFinancialAccount':
        payment.meansCode === '58'
          ? { 'ram:IBANID': payment.account }
          : { 'ram:ProprietaryID': xmlText(payment.account) },
      'ram:PayeeSpecifiedCreditorFinancialInstitution': payment.bic && {
        'ram:BICID': payment.bic,
      },
    },
    'ram:ApplicableTradeTax': document.vatBreakdown.map((group) => ({
      'ram:CalculatedAmount': group.taxAmount,
      'ram:TypeCode': 'VAT',
      'ram:ExemptionReason': optionalText(group.exemptionReason),
      'ram:BasisAmount': group.taxableAmount,
      'ram:CategoryCode': group.category,
      'ram:ExemptionReasonCode': group.exemptionCode,
      'ram:RateApplicablePercent': group.rate,
    })),
    'ram:BillingSpecifiedPeriod': document.period && {
      'ram:StartDateTime': dateTime(document.period.start),
      'ram:EndDateTime': dateTime(document.period.end),
    },
    'ram:SpecifiedTradeAllowanceCharge': document.allowances.map((each) => ({
      ...allowance(each),
      'ram:CategoryTradeTax': tradeTax(each.vat),
    })),
    'ram:SpecifiedTradePaymentTerms':
      document.paymentTerms || document.dueDate
        ? {
            'ram:Description': optionalText(document.paymentTerms),
            'ram:DueDateDateTime': document.dueDate && dateTime(document.dueDate),
          }
        : undefined,
    'ram:SpecifiedTradeSettlementHeaderMonetarySummation': {
      'ram:LineTotalAmount': totals.lineTotal,
      'ram:AllowanceTotalAmount': totals.allowanceTotal,
      'ram:TaxBasisTotalAmount': totals.taxBasisTotal,
      'ram:TaxTotalAmount': { '#text': totals.taxTotal, '@_currencyID': currency },
      'ram:GrandTotalAmount': totals.grandTotal,
      'ram:TotalPrepaidAmount': totals.prepaid,
      'ram:DuePayableAmount': totals.duePayable,
    },
    'ram:InvoiceReferencedDocument': document.precedingInvoice && {
      'ram:IssuerAssignedID': xmlText(document.precedingInvoice.number),
      'ram:FormattedIssueDateTime': document.precedingInvoice.issueDate && {
        'qdt:DateTimeString': {
          '#text': compactDate(document.precedingInvoice.issueDate),
          '@_format': '102',
        },
      },
    },
  };
}

/** A date as CII writes it: `YYYYMMDD`, format 102. */
function dateTime(date: string): XmlNode {
  return { 'udt:DateTimeString': { '#text': compactDate(date), '@_format': '102' } };
}

function compactDate(date: string): string {
  return date.replaceAll('-', '');
}
