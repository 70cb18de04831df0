import { Controller, Get, Param, Put } from '@nestjs/common';
import { DOCUMENT_KINDS } from '../document-vocabulary/document-kind';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { RequestInput } from '../http/request-input.decorator';
import { ApiEndpoint, ApiResource } from '../openapi/api-endpoint.decorator';
import {
  ListNumberSeriesDto,
  NumberSeriesListResponseDto,
  NumberSeriesResponseDto,
  UpdateNumberSeriesDto,
} from './dto/number-series.dto';
import { NumberSeries } from './number-series.service';

@ApiResource('number series')
@Controller('number-series')
export class NumberSeriesController {
  constructor(private readonly series: NumberSeries) {}

  @Get('all')
  @ApiEndpoint({
    summary: 'List the number series',
    description:
      'Beyond the specification: the invoice, estimate and credit note series, each with its format and the number the next document dated today takes.',
    query: ListNumberSeriesDto,
    success: NumberSeriesListResponseDto,
    errors: { 422: 'A malformed page' },
  })
  list(@RequestInput() query: ListNumberSeriesDto): Promise<NumberSeriesListResponseDto> {
    return this.series.list(query);
  }

  @Put(':kind')
  @Idempotent()
  @ApiEndpoint({
    summary: 'Change a number series',
    description:
      'Beyond the specification: its format, and the next sequence number of the current period (e.g. when moving from another system). Numbers already given keep their text.',
    pathValue: { name: 'kind', values: DOCUMENT_KINDS, description: 'The kind of document' },
    body: UpdateNumberSeriesDto,
    success: NumberSeriesResponseDto,
    errors: {
      404: 'No such kind of document',
      409: 'next is below a number the series has already taken in the current period',
      422: 'A malformed format or next',
    },
  })
  update(
    @Param('kind') kind: string,
    @RequestInput() input: UpdateNumberSeriesDto,
  ): Promise<NumberSeriesResponseDto> {
    return this.series.update(kind, input);
  }
}
