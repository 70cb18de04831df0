import { DomainException } from '../../common/domain.exception';
import {
  afterInvoice,
  isDue,
  paused,
  rescheduled,
  resumed,
  Schedule,
  startedState,
} from './schedule-state';

function schedule(overrides: Partial<Schedule> = {}): Schedule {
  const cadence = {
    startDate: '2026-01-10',
    interval: 'month' as const,
    intervalCount: 1,
    endDate: null,
    count: null,
    ...overrides,
  };
  return { ...cadence, ...startedState(cadence), ...overrides };
}

/** Makes every period due by `today`, as the scan does. */
function billUntil(from: Schedule, today: string): { state: Schedule; billed: string[] } {
  let state = from;
  const billed: string[] = [];
  while (isDue(state, today)) {
    billed.push(state.nextDate as string);
    state = { ...state, ...afterInvoice(state) };
  }
  return { state, billed };
}

describe('a schedule’s state', () => {
  it('starts with its start date next, or ended when no period is left', () => {
    expect(schedule()).toMatchObject({ status: 'active', nextDate: '2026-01-10', nextIndex: 0 });
    expect(schedule({ count: 0 })).toMatchObject({ status: 'ended', nextDate: null });
  });

  it('is due on the period’s date, not before', () => {
    expect(isDue(schedule(), '2026-01-09')).toBe(false);
    expect(isDue(schedule(), '2026-01-10')).toBe(true);
  });

  it('bills each missed period once, with its own date, and ends after its count', () => {
    const { state, billed } = billUntil(schedule({ count: 3 }), '2026-12-31');
    expect(billed).toEqual(['2026-01-10', '2026-02-10', '2026-03-10']);
    expect(state).toMatchObject({ status: 'ended', nextDate: null, invoicesMade: 3 });
  });

  it('skips the periods that fall while paused, and still bills one due before the pause', () => {
    // Due on 10 February, not yet made (no instance ran), paused on the 15th.
    let state = schedule({ ...billUntil(schedule(), '2026-01-31').state });
    state = { ...state, ...paused(state, '2026-02-15') };
    expect(isDue(state, '2026-04-20')).toBe(true);
    const caughtUp = billUntil(state, '2026-04-20');
    expect(caughtUp.billed).toEqual(['2026-02-10']);
    state = { ...caughtUp.state, ...resumed(caughtUp.state, '2026-04-20') };
    expect(state).toMatchObject({ status: 'active', nextDate: '2026-05-10' });
    expect(billUntil(state, '2026-05-10').billed).toEqual(['2026-05-10']);
  });

  it('resumed on a period’s date bills that period', () => {
    let state = schedule();
    state = { ...state, ...paused(state, '2026-01-05') };
    state = { ...state, ...resumed(state, '2026-03-10') };
    expect(state.nextDate).toBe('2026-03-10');
  });

  it('keeps the periods skipped while paused skipped when the end changes afterwards', () => {
    let state = schedule();
    state = { ...state, ...paused(state, '2026-01-05') };
    state = { ...state, ...resumed(state, '2026-04-20') };
    expect(state.nextDate).toBe('2026-05-10');
    expect(rescheduled({ ...state, count: 12 }).nextDate).toBe('2026-05-10');
    expect(rescheduled({ ...state, intervalCount: 2 }).nextDate).toBe('2026-05-10');
  });

  it('refuses to pause what is not active and to resume what is not paused (409)', () => {
    const state = schedule();
    expect(() => resumed(state, '2026-01-01')).toThrow(DomainException);
    const pausedState = { ...state, ...paused(state, '2026-01-01') };
    expect(() => paused(pausedState, '2026-01-02')).toThrow(DomainException);
  });

  it('moves to the first new period on or after the one that was next when the cadence changes', () => {
    const { state } = billUntil(schedule(), '2026-02-10');
    expect(state.nextDate).toBe('2026-03-10');
    const weekly = { ...state, interval: 'week' as const, startDate: '2026-01-01' };
    expect(rescheduled(weekly).nextDate).toBe('2026-03-12');
    // A later start date: its first period.
    expect(rescheduled({ ...state, startDate: '2026-06-01' }).nextDate).toBe('2026-06-01');
    // A count already reached ends it; raising it again brings it back.
    const ended = { ...state, ...rescheduled({ ...state, count: 2 }) };
    expect(ended).toMatchObject({ status: 'ended', nextDate: null });
    expect(rescheduled({ ...ended, count: 3 })).toMatchObject({
      status: 'active',
      nextDate: '2026-03-10',
    });
  });
});
