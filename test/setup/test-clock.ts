import { Clock } from '../../src/common/clock';

/**
 * The service's clock under a test's control: the time of day keeps running, the date is the
 * one the test sets (UTC). createTestApp({ clock }) puts it in place of the real one, so "today"
 * (defaults, an invoice's status, the status filter) is the test's.
 */
export class TestClock extends Clock {
  private offsetMs = 0;

  override now(): Date {
    return new Date(Math.floor((Date.now() + this.offsetMs) / 1000) * 1000);
  }

  /** From now on, today is `date` (YYYY-MM-DD), at the real time of day. */
  setToday(date: string): void {
    const now = new Date();
    const target = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(target)) throw new Error(`Not a date: ${date}`);
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    this.offsetMs = target - midnight;
  }

  /** Moves the clock on by `ms`, date and time of day alike. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
