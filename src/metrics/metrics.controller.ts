import { Controller, Get, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../openapi/dto/envelope-response.dto';
import { API_KEY_SCHEME, BEARER_SCHEME } from '../openapi/api-endpoint.decorator';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../http/auth/public.decorator';

/**
 * Prometheus text at `/metrics`, outside /v1. It needs a key when keys are set, unless
 * METRICS_PUBLIC=true. The handler answers itself: the body is not the JSON envelope.
 */
@ApiTags('Operations')
@Public((config) => config.metricsPublic)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics (text exposition format)',
    description: 'Needs a key when keys are set, unless METRICS_PUBLIC=true.',
  })
  @ApiBearerAuth(BEARER_SCHEME)
  @ApiSecurity(API_KEY_SCHEME)
  @ApiOkResponse({
    description: 'Metrics',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 401,
    description: 'No API key, or an unknown one',
    type: ErrorEnvelopeDto,
  })
  async scrape(@Res() response: Response): Promise<void> {
    response.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
