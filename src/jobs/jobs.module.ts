import { Global, Module } from '@nestjs/common';
import { JobRunner } from './job-runner';

/** The one runner of every outbox; each kind of job registers with it. */
@Global()
@Module({ providers: [JobRunner], exports: [JobRunner] })
export class JobsModule {}
