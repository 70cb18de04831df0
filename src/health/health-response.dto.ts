import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One dependency's state in a readiness answer. */
export class DependencyState {
  @ApiProperty({ type: 'string', enum: ['up'] })
  status: 'up';

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Milliseconds to answer' })
  responseTime?: number;
}

/** `GET /health`: the process answers (`{"status": "success"}` once enveloped). */
export class LivenessResponse {}

/** The dependencies `GET /health/ready` checks. */
export class ReadinessChecks {
  @ApiProperty({ type: DependencyState })
  database: DependencyState;
}

/** `GET /health/ready`: every dependency answered (`{"status": "success", "checks": …}`). */
export class ReadinessResponse {
  @ApiProperty({ type: ReadinessChecks })
  checks: Record<string, DependencyState>;
}
