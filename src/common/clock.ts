import { Injectable } from '@nestjs/common';

/** The service's notion of "now": UTC, whole seconds (what a DATETIME column keeps). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date(Math.floor(Date.now() / 1000) * 1000);
  }

  /** Today's calendar date in UTC, YYYY-MM-DD. */
  today(): string {
    return formatDate(this.now());
  }
}

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export function formatTimestamp(instant: Date): string {
  return instant.toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD`, UTC. */
export function formatDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}
