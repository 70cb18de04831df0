import { IntersectionType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsDateInput, IsNotBefore, IsOneOf } from '../../common/input-rules';
import {
  DateInputProperty,
  ListedValueInputProperty,
} from '../../openapi/schema-property.decorator';

export const REPORT_FORMATS = ['json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_BASES = ['accrual', 'cash'] as const;
export type ReportBasis = (typeof REPORT_BASES)[number];

/** Every report: JSON in the envelope, or CSV. */
export class ReportFormatDto {
  @ListedValueInputProperty(REPORT_FORMATS, {
    required: false,
    description: 'json (default) or csv: RFC 4180, a header row and one row per line',
  })
  @IsOptional()
  @IsOneOf(REPORT_FORMATS)
  format?: ReportFormat;
}

/** `GET /report/aging`. */
export class AgingQueryDto extends ReportFormatDto {
  @DateInputProperty({
    required: false,
    description: 'The date balances and days past due are counted on; default today (UTC)',
  })
  @IsOptional()
  @IsDateInput()
  as_of?: string;
}

/** Reports over a range of dates, both inclusive. */
export class PeriodQueryDto extends ReportFormatDto {
  @DateInputProperty({
    required: false,
    description: 'First day, inclusive; default the first of January of `to`’s year',
  })
  @IsOptional()
  @IsDateInput()
  from?: string;

  @DateInputProperty({
    required: false,
    description: 'Last day, inclusive; default today (UTC); not before `from`',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('from')
  to?: string;
}

/** `GET /report/profit-and-loss`. */
export class ProfitAndLossQueryDto extends PeriodQueryDto {
  @ListedValueInputProperty(REPORT_BASES, {
    required: false,
    description:
      'accrual (default): income by invoice and credit-note issue date; cash: payments less refunds by their date, without tax',
  })
  @IsOptional()
  @IsOneOf(REPORT_BASES)
  basis?: ReportBasis;
}

/** `GET /client/{id}/statement/pdf`: the period. */
export class StatementPeriodDto {
  @DateInputProperty({
    required: false,
    description: 'First day, inclusive; default none: from the client’s first document',
  })
  @IsOptional()
  @IsDateInput()
  from?: string;

  @DateInputProperty({
    required: false,
    description: 'Last day, inclusive; default today (UTC); not before `from`',
  })
  @IsOptional()
  @IsDateInput()
  @IsNotBefore('from')
  to?: string;
}

/** `GET /client/{id}/statement`: the period, as JSON or CSV. */
export class StatementQueryDto extends IntersectionType(StatementPeriodDto, ReportFormatDto) {}
