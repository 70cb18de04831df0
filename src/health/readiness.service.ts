import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { HealthCheckResult } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { LivenessResponse, ReadinessResponse } from './health-response.dto';

/**
 * Liveness needs nothing but the process; readiness needs the database to answer `SELECT 1`
 * within HEALTH_DATABASE_TIMEOUT_MS and the process not to be shutting down. A failing probe is
 * a 503 in the error envelope; a change of readiness is logged once, not at every probe.
 */
@Injectable()
export class ReadinessService {
  private readonly logger = new Logger('Readiness');
  private databaseAnswered = true;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly config: AppConfig,
  ) {}

  alive(): LivenessResponse {
    return {};
  }

  async ready(): Promise<ReadinessResponse> {
    this.refuseWhileShuttingDown();
    let result: HealthCheckResult;
    try {
      result = await this.health.check([
        () => this.database.pingCheck('database', { timeout: this.config.healthDatabaseTimeoutMs }),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      this.refuseWhileShuttingDown();
      this.noteDatabase(false, error.getResponse());
      throw new ServiceUnavailableException('Not ready: the database does not answer');
    }
    this.noteDatabase(true);
    return { checks: result.details as ReadinessResponse['checks'] };
  }

  private refuseWhileShuttingDown(): void {
    if (this.shutdown.shuttingDown) {
      throw new ServiceUnavailableException('Not ready: shutting down');
    }
  }

  private noteDatabase(answered: boolean, failure?: unknown): void {
    if (answered === this.databaseAnswered) return;
    this.databaseAnswered = answered;
    if (answered) {
      this.logger.log('Ready: the database answers again');
    } else {
      const checks = (failure as HealthCheckResult).details;
      this.logger.warn({ checks }, 'Not ready: the database does not answer');
    }
  }
}
