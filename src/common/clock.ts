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

/** `date` moved by `days` (YYYY-MM-DD, UTC). */
export function shiftDate(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day + days);
  return instant.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to`, both YYYY-MM-DD (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayNumber(to) - dayNumber(from)) / 86_400_000);
}

function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  return instant.getTime();
}
