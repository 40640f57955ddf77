import { type Argument, boolean, defineApp, defineTrigger, dropdown, noAuth, number, text } from '../sdk/index.js';
import { icon } from './icon.js';
import {
  cronProblem,
  everyDay,
  everyHour,
  everyMonth,
  everyNMinutes,
  everyWeek,
  timezoneProblem,
} from './schedules.js';

const timezone = text({
  label: 'Time zone',
  default: 'UTC',
  description: 'An IANA time zone; hours are counted in it, daylight saving included.',
  check: timezoneProblem,
});
const hour = number({ label: 'Hour', required: true, integer: true, min: 0, max: 23 });
const triggersOnWeekend = boolean({ label: 'Also on weekends', default: true });

/** What each firing hands the flow. */
const fired = async () => {
  const now = new Date();
  return [{ data: { firedAt: now.toISOString(), timestamp: now.getTime() } }];
};

const scheduled = <A extends Record<string, Argument<unknown>>>(
  key: string,
  name: string,
  args: A,
  cron: (parameters: any) => string,
) =>
  defineTrigger({
    key,
    name,
    description: `Starts the flow ${name.toLowerCase()}.`,
    type: 'schedule',
    arguments: { ...args, timezone },
    run: fired,
    schedule: (parameters: any) => ({ cron: cron(parameters), timezone: parameters.timezone as string }),
  });

export const scheduler = defineApp({
  key: 'scheduler',
  name: 'Scheduler',
  description: 'Start flows on a schedule.',
  icon,
  primaryColor: '#0f766e',
  categories: ['utilities', 'flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [
    scheduled(
      'everyNMinutes',
      'Every N minutes',
      { interval: number({ label: 'Minutes', required: true, integer: true, min: 1, max: 59 }) },
      (p) => everyNMinutes(p.interval),
    ),
    scheduled('everyHour', 'Every hour', { triggersOnWeekend }, (p) => everyHour(p.triggersOnWeekend)),
    scheduled('everyDay', 'Every day', { hour, triggersOnWeekend }, (p) => everyDay(p.hour, p.triggersOnWeekend)),
    scheduled(
      'everyWeek',
      'Every week',
      {
        weekday: dropdown({
          label: 'Weekday',
          required: true,
          options: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map(
            (label, value) => ({
              label,
              value,
            }),
          ),
        }),
        hour,
      },
      (p) => everyWeek(p.weekday, p.hour),
    ),
    scheduled(
      'everyMonth',
      'Every month',
      { day: number({ label: 'Day of the month', required: true, integer: true, min: 1, max: 31 }), hour },
      (p) => everyMonth(p.day, p.hour),
    ),
    scheduled(
      'cron',
      'On a cron schedule',
      {
        expression: text({ label: 'Cron expression', required: true, placeholder: '*/15 * * * *', check: cronProblem }),
      },
      (p) => p.expression,
    ),
  ],
  actions: [],
});
