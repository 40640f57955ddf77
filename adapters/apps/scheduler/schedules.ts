import { Cron } from 'croner';

/** A five-field cron expression croner accepts, or why not. */
export const cronProblem = (expression: string): string | null => {
  if (expression.trim().split(/\s+/).length !== 5) return 'must have five fields: minute hour day month weekday.';
  try {
    new Cron(expression, { paused: true });
    return null;
  } catch (error) {
    return `is not a valid cron expression (${(error as Error).message}).`;
  }
};

export const timezoneProblem = (zone: string): string | null => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return null;
  } catch {
    return 'is not a known IANA time zone (e.g. Europe/Berlin).';
  }
};

const weekdays = (onWeekend: boolean | undefined) => (onWeekend === false ? '1-5' : '*');

/** The cron expressions of the scheduler's triggers, from their parameters. */
export const everyNMinutes = (interval: number) => `*/${interval} * * * *`;
export const everyHour = (onWeekend?: boolean) => `0 * * * ${weekdays(onWeekend)}`;
export const everyDay = (hour: number, onWeekend?: boolean) => `0 ${hour} * * ${weekdays(onWeekend)}`;
export const everyWeek = (weekday: number, hour: number) => `0 ${hour} * * ${weekday}`;
export const everyMonth = (day: number, hour: number) => `0 ${hour} ${day} * *`;
