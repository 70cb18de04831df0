import { addDays, currentStep } from './reminder-steps';

describe('reminder steps', () => {
  const steps = [-3, 1, 7, 14];

  it.each([
    ['2026-03-06', null],
    ['2026-03-07', -3],
    ['2026-03-10', -3],
    ['2026-03-11', 1],
    ['2026-03-17', 7],
    ['2026-03-23', 7],
    ['2026-03-24', 14],
    ['2027-01-01', 14],
  ])('due 2026-03-10, on %s the step is %p', (today, step) => {
    expect(currentStep(steps, '2026-03-10', today)).toBe(step);
  });

  it('moves dates across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-01-10', 365)).toBe('2027-01-10');
  });
});
