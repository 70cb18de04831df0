import { currentStep } from './reminder-steps';

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
});
