import { Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown.service';
import { ShutdownState } from './shutdown-state';

@Module({
  providers: [ShutdownState, GracefulShutdown],
  exports: [ShutdownState],
})
export class LifecycleModule {}
