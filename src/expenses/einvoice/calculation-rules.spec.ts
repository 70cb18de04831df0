import { Decimal } from '../../common/money/decimal';
import { parseUntrustedXml } from '../../common/xml/untrusted-xml';
import { calculationProblems } from './calculation-rules';
import { readReceivedEinvoice, ReceivedEinvoice } from './received-einvoice';

/** A UBL invoice of one 100.00 line, a document allowance and charge, 25 % VAT. */
function ubl(change: { allowance?: string; indicator?: string; due?: string } = {}): string {
  const money = (name: string, value: string) =>
    `<cbc:${name} currencyID="NOK">${value}</cbc:${name}>`;
  return `<?xml version="1.0"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>T-1</cbc:ID><cbc:IssueDate>2026-01-31</cbc:IssueDate>
  <cbc:DocumentCurrencyCode>NOK</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity>
    <cbc:RegistrationName>Seller AS</cbc:RegistrationName>
  </cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:AllowanceCharge><cbc:ChargeIndicator>${change.indicator ?? '0'}</cbc:ChargeIndicator>
    ${money('Amount', change.allowance ?? '10.00')}</cac:AllowanceCharge>
  <cac:AllowanceCharge><cbc:ChargeIndicator>1</cbc:ChargeIndicator>
    ${money('Amount', '5.00')}</cac:AllowanceCharge>
  <cac:TaxTotal>${money('TaxAmount', '23.75')}<cac:TaxSubtotal>
    ${money('TaxableAmount', '95.00')}${money('TaxAmount', '23.75')}
    <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent></cac:TaxCategory>
  </cac:TaxSubtotal></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    ${money('LineExtensionAmount', '100.00')}${money('AllowanceTotalAmount', '10.00')}
    ${money('ChargeTotalAmount', '5.00')}${money('TaxExclusiveAmount', '95.00')}
    ${money('TaxInclusiveAmount', '118.75')}${money('PayableAmount', change.due ?? '118.75')}
  </cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>
    ${money('LineExtensionAmount', '100.00')}<cac:Item><cbc:Name>Thing</cbc:Name></cac:Item>
  </cac:InvoiceLine>
</Invoice>`;
}

function received(xml: string): ReceivedEinvoice {
  const outcome = readReceivedEinvoice(parseUntrustedXml(Buffer.from(xml)));
  if ('problems' in outcome) throw new Error(JSON.stringify(outcome.problems));
  return outcome.invoice;
}

describe('calculationProblems (BR-CO-10 to BR-CO-16)', () => {
  it('accepts totals that agree, reading charge indicators as xs:boolean (0, 1, false, true)', () => {
    expect(calculationProblems(received(ubl()))).toEqual({});
    expect(calculationProblems(received(ubl({ indicator: 'false' })))).toEqual({});
  });

  it('names each rule that fails, with both figures', () => {
    expect(calculationProblems(received(ubl({ allowance: '10.01' })))).toEqual({
      'BR-CO-11': [expect.stringContaining('states 10, the rule gives 10.01')],
    });
    expect(Object.keys(calculationProblems(received(ubl({ due: '118.74' }))))).toEqual([
      'BR-CO-16',
    ]);
  });

  it('compares exactly: lines of 0.10 and 0.20 make 0.30', () => {
    const invoice = received(ubl());
    const [line] = invoice.lines;
    invoice.lines = [
      { ...line, netAmount: new Decimal('0.10') },
      { ...line, netAmount: new Decimal('0.20') },
    ];
    invoice.totals.lineNet = new Decimal('0.30');
    expect(calculationProblems(invoice)['BR-CO-10']).toBeUndefined();
    invoice.totals.lineNet = new Decimal(0.1 + 0.2);
    expect(calculationProblems(invoice)['BR-CO-10']).toBeDefined();
  });
});
