import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorEnvelopeDto, SuccessEnvelopeDto } from '../openapi/dto/envelope-response.dto';
import { Public } from '../http/auth/public.decorator';
import { LivenessResponse, ReadinessResponse } from './health-response.dto';
import { ReadinessService } from './readiness.service';

/**
 * The success envelope, with the probe's payload when it has one (an empty payload class would
 * make generated clients type the answer as having no properties at all).
 */
function probeAnswer(payload?: new () => object) {
  const envelope = { $ref: getSchemaPath(SuccessEnvelopeDto) };
  return applyDecorators(
    ApiExtraModels(SuccessEnvelopeDto, ...(payload ? [payload] : [])),
    ApiOkResponse({
      description: 'Success',
      schema: payload ? { allOf: [envelope, { $ref: getSchemaPath(payload) }] } : envelope,
    }),
  );
}

/** Probes for the orchestrator: outside /v1, no key, never cached. */
@ApiTags('Operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness: the process answers (no database check)',
    description: 'Answers 200 while the process runs, whatever the database does. No API key.',
    security: [],
  })
  @probeAnswer()
  @Header('Cache-Control', 'no-store')
  alive(): LivenessResponse {
    return this.readiness.alive();
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: the database answers within HEALTH_DATABASE_TIMEOUT_MS',
    description:
      'Fails (503) while the database is unreachable and from the start of shutdown. No API key.',
    security: [],
  })
  @probeAnswer(ReadinessResponse)
  @ApiResponse({ status: 503, description: 'Not ready', type: ErrorEnvelopeDto })
  @Header('Cache-Control', 'no-store')
  ready(): Promise<ReadinessResponse> {
    return this.readiness.ready();
  }
}
