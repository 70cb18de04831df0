import { Injectable } from '@nestjs/common';

/** Whether the process has begun to shut down; readiness fails from then on. */
@Injectable()
export class ShutdownState {
  private began = false;

  get shuttingDown(): boolean {
    return this.began;
  }

  begin(): void {
    this.began = true;
  }
}
