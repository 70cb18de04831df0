import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { PDF_MEDIA_TYPE } from '../documents/pdf/document-pdf.renderer';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import {
  AgingQueryDto,
  PeriodQueryDto,
  ProfitAndLossQueryDto,
  StatementPeriodDto,
  StatementQueryDto,
} from './dto/report-query.dto';
import {
  AgingReportDto,
  AgingResponseDto,
  ProfitAndLossReportDto,
  ProfitAndLossResponseDto,
  StatementDto,
  StatementResponseDto,
  TaxSummaryReportDto,
  TaxSummaryResponseDto,
} from './dto/report-response.dto';
import { ReportAnswer, ReportsService } from './reports.service';

const INVALID = 'A malformed date or format, or `to` before `from`';
const CSV_ROWS = 'docs/receivables.md lists the columns';

@ApiResource('reports')
@Controller()
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('report/aging')
  @ApiEndpoint({
    summary: 'Receivables aging',
    description:
      'Balances of live, non-void invoices on `as_of`, per currency and client, in buckets of days past due: current, 1-30, 31-60, 61-90, over_90.',
    query: AgingQueryDto,
    success: AgingResponseDto,
    csv: `one row per client and currency, then its totals (${CSV_ROWS})`,
    errors: { 422: INVALID },
  })
  aging(@RequestInput() query: AgingQueryDto): Promise<ReportAnswer<AgingReportDto>> {
    return this.reports.aging(query);
  }

  @Get('report/profit-and-loss')
  @ApiEndpoint({
    summary: 'Profit and loss',
    description:
      'Per currency and month: income without tax (accrual: invoices less credit notes by issue date; cash: payments less refunds by their date), expenses by category, profit.',
    query: ProfitAndLossQueryDto,
    success: ProfitAndLossResponseDto,
    csv: `one row per figure of each month, then the totals (${CSV_ROWS})`,
    errors: { 422: INVALID },
  })
  profitAndLoss(
    @RequestInput() query: ProfitAndLossQueryDto,
  ): Promise<ReportAnswer<ProfitAndLossReportDto>> {
    return this.reports.profitAndLoss(query);
  }

  @Get('report/tax-summary')
  @ApiEndpoint({
    summary: 'Tax summary',
    description:
      'Per currency and tax rate: taxable amount and tax of invoices less credit notes issued in the period.',
    query: PeriodQueryDto,
    success: TaxSummaryResponseDto,
    csv: `one row per rate, then the totals (${CSV_ROWS})`,
    errors: { 422: INVALID },
  })
  taxSummary(@RequestInput() query: PeriodQueryDto): Promise<ReportAnswer<TaxSummaryReportDto>> {
    return this.reports.taxSummary(query);
  }

  @Get('client/:id/statement/pdf')
  @ApiEndpoint({
    summary: 'A client statement as a PDF',
    description: 'The statement printed on A4, with the issuer from the COMPANY_* settings.',
    pathId: 'Id of the client',
    query: StatementPeriodDto,
    success: {
      mediaType: PDF_MEDIA_TYPE,
      description: 'The statement as a PDF',
      filename: 'statement-<id>-<to>.pdf',
    },
    errors: { 404: 'No live client with this id', 422: INVALID },
  })
  statementPdf(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() query: StatementPeriodDto,
  ): Promise<StreamableFile> {
    return this.reports.statementPdf(id, query);
  }

  @Get('client/:id/statement')
  @ApiEndpoint({
    summary: 'A client statement',
    description:
      'Per currency: the opening balance, every invoice, payment, refund and credit note in date order with the running balance, and the closing balance.',
    pathId: 'Id of the client',
    query: StatementQueryDto,
    success: StatementResponseDto,
    csv: `an opening row, one row per line, a closing row, per currency (${CSV_ROWS})`,
    errors: { 404: 'No live client with this id', 422: INVALID },
  })
  statement(
    @Param('id', ParseIdPipe) id: number,
    @RequestInput() query: StatementQueryDto,
  ): Promise<ReportAnswer<StatementDto>> {
    return this.reports.statement(id, query);
  }
}
