import { shiftDate } from '../../common/clock';
import { DomainException } from '../../common/domain.exception';
import { Cadence, dueDateOfPeriod, firstIndexOnOrAfter, periodDate, ScheduleEnd } from './schedule';

/**
 * `active`: makes each period's invoice on its date. `paused`: makes none of the periods that
 * fall while paused (they are skipped, not billed on resume). `ended`: no period is left (its
 * end date or count was reached, or it was deleted).
 */
export const SCHEDULE_STATUSES = ['active', 'paused', 'ended'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Where a schedule stands: the next period to bill, and what was billed. */
export interface ScheduleState {
  status: ScheduleStatus;
  nextIndex: number;
  nextDate: string | null;
  pausedOn: string | null;
  skipFrom: string | null;
  skipUntil: string | null;
  invoicesMade: number;
  lastPeriod: string | null;
}

export type Schedule = ScheduleState & Cadence & ScheduleEnd;

/** A new schedule: its first period is its start date. */
export function startedState(schedule: Cadence & ScheduleEnd): ScheduleState {
  const nextDate = dueDateOfPeriod(schedule, schedule, 0, 0);
  return {
    status: nextDate === null ? 'ended' : 'active',
    nextIndex: 0,
    nextDate,
    pausedOn: null,
    skipFrom: null,
    skipUntil: null,
    invoicesMade: 0,
    lastPeriod: null,
  };
}

/**
 * Whether the next period's invoice is to be made on `today`: its date has come and the
 * schedule is active, or it was paused after that date (a period due before the pause is still
 * billed, as when an instance was down at the time).
 */
export function isDue(state: ScheduleState, today: string): boolean {
  if (state.nextDate === null || state.nextDate > today) return false;
  if (state.status === 'active') return true;
  return state.status === 'paused' && state.pausedOn !== null && state.nextDate < state.pausedOn;
}

/** The state once the next period's invoice is made: the period after it, past any skipped. */
export function afterInvoice(schedule: Schedule): ScheduleState {
  if (schedule.nextDate === null) throw new Error('A schedule with no period left made an invoice');
  const made = {
    ...schedule,
    invoicesMade: schedule.invoicesMade + 1,
    lastPeriod: schedule.nextDate,
  };
  return withNext(made, schedule.nextIndex + 1);
}

/** Pausing: no period is made from `today` until resumed. 409 unless active. */
export function paused(schedule: Schedule, today: string): ScheduleState {
  if (schedule.status !== 'active') {
    throw new DomainException(
      'SCHEDULE_NOT_ACTIVE',
      `The recurring invoice is ${schedule.status}: only an active one can be paused`,
    );
  }
  return { ...schedule, status: 'paused', pausedOn: today };
}

/**
 * Resuming on `today`: the periods dated from the pause until before today are skipped. Those
 * due before the pause and not yet made (the service was down) are still made first. 409
 * unless paused.
 */
export function resumed(schedule: Schedule, today: string): ScheduleState {
  if (schedule.status !== 'paused' || schedule.pausedOn === null) {
    throw new DomainException(
      'SCHEDULE_NOT_PAUSED',
      `The recurring invoice is ${schedule.status}: only a paused one can be resumed`,
    );
  }
  const skip = { skipFrom: schedule.pausedOn, skipUntil: today };
  const active = { ...schedule, ...skip, status: 'active' as const, pausedOn: null };
  return withNext(active, schedule.nextIndex);
}

/**
 * After a change of start date, interval or end: the next period is the first of the new
 * cadence on or after the period that was next (after the last one billed, once it had
 * ended), so a change applies from the next period, never bills a period twice, and never
 * brings back a period skipped while paused.
 */
export function rescheduled(schedule: Schedule): ScheduleState {
  const floor =
    schedule.nextDate ?? (schedule.lastPeriod === null ? null : shiftDate(schedule.lastPeriod, 1));
  const index = floor === null ? 0 : firstIndexOnOrAfter(schedule, floor);
  const status = schedule.status === 'ended' ? 'active' : schedule.status;
  return withNext({ ...schedule, status }, index);
}

/**
 * The state with period `index` next, moved past the periods in the skip window; ended when
 * the end date or the count leaves no period.
 */
function withNext(schedule: Schedule, index: number): ScheduleState {
  let next = index;
  let { skipFrom, skipUntil } = schedule;
  if (skipFrom !== null && skipUntil !== null) {
    const date = periodDate(schedule, next);
    if (date >= skipFrom) {
      if (date < skipUntil) next = firstIndexOnOrAfter(schedule, skipUntil);
      skipFrom = null;
      skipUntil = null;
    }
  }
  const nextDate = dueDateOfPeriod(schedule, schedule, next, schedule.invoicesMade);
  return {
    status: nextDate === null ? 'ended' : schedule.status,
    nextIndex: next,
    nextDate,
    pausedOn: nextDate === null ? null : schedule.pausedOn,
    skipFrom: nextDate === null ? null : skipFrom,
    skipUntil: nextDate === null ? null : skipUntil,
    invoicesMade: schedule.invoicesMade,
    lastPeriod: schedule.lastPeriod,
  };
}
