import { StatementDto } from './dto/report-response.dto';
import { StatementView } from './pdf/statement-pdf.renderer';

/** The statement as the PDF prints it. */
export function toStatementView(statement: StatementDto, address: string): StatementView {
  return {
    client: { ...statement.client, address },
    from: statement.from,
    to: statement.to,
    currencies: statement.currencies.map((section) => ({
      currency: section.currency,
      openingBalance: section.opening_balance,
      closingBalance: section.closing_balance,
      lines: section.lines.map((line) => ({
        date: line.date,
        type: line.type,
        reference: line.reference,
        invoiceNo: line.invoice_no,
        amount: line.amount,
        balance: line.balance,
      })),
    })),
  };
}
