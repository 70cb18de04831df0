import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { HealthController } from './health.controller';
import { ReadinessService } from './readiness.service';

@Module({
  // Terminus logs every failed probe; ReadinessService logs only the changes.
  imports: [TerminusModule.forRoot({ logger: false }), LifecycleModule],
  controllers: [HealthController],
  providers: [ReadinessService],
})
export class HealthModule {}
