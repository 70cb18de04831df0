import { Decimal } from '../common/money/decimal';
import { EXAMPLE_INVOICE, EXAMPLE_LINES, EXAMPLE_PAYMENT, SCHEMA_EXAMPLES } from './examples';

/** The examples of the document tell one story whose amounts add up as docs/rules.md says. */
describe('the examples of the OpenAPI document', () => {
  const money = (value: string | number | Decimal) => new Decimal(value).toFixed(2);

  it('price each line as quantity × rate', () => {
    for (const line of EXAMPLE_LINES) {
      expect(money(new Decimal(line.quantity).times(line.rate))).toBe(line.amount);
    }
  });

  it('total the invoice: sub_total, tax at its rate, total, amount paid and balance', () => {
    const subTotal = EXAMPLE_LINES.reduce((sum, line) => sum.plus(line.amount), new Decimal(0));
    const tax = subTotal
      .times(EXAMPLE_INVOICE.tax_rate)
      .dividedBy(100)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    expect(money(EXAMPLE_INVOICE.sub_total)).toBe(money(subTotal));
    expect(money(EXAMPLE_INVOICE.tax_amount)).toBe(money(tax));
    expect(money(EXAMPLE_INVOICE.total)).toBe(money(subTotal.plus(tax)));
    expect(EXAMPLE_INVOICE.amount_paid).toBe(money(EXAMPLE_PAYMENT.amount));
    expect(EXAMPLE_INVOICE.outstanding_balance).toBe(
      money(new Decimal(EXAMPLE_INVOICE.total).minus(EXAMPLE_INVOICE.amount_paid)),
    );
  });

  it('show the same invoice wherever an invoice is answered', () => {
    expect(SCHEMA_EXAMPLES.InvoiceDto).toBe(EXAMPLE_INVOICE);
    expect(SCHEMA_EXAMPLES.InvoiceWithTimestampsDto).toBe(EXAMPLE_INVOICE);
    expect(SCHEMA_EXAMPLES.PaymentEntryDto).toBe(EXAMPLE_PAYMENT);
    expect(SCHEMA_EXAMPLES.RecordPaymentDto).toMatchObject({
      id: EXAMPLE_INVOICE.id,
      amount_paid: EXAMPLE_INVOICE.amount_paid,
    });
  });
});
