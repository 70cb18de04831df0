import { daysBetween } from '../../common/clock';

/**
 * The step an invoice due on `dueDate` is at on `today`: the latest of `steps` (days relative to
 * the due date, ascending) whose day has come, or null before the first. Earlier steps passed
 * over (no instance ran on their day) are never sent: only the latest one is.
 */
export function currentStep(steps: number[], dueDate: string, today: string): number | null {
  const daysPastDue = daysBetween(dueDate, today);
  let current: number | null = null;
  for (const step of steps) if (step <= daysPastDue) current = step;
  return current;
}
