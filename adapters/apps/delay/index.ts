import { defineAction, defineApp, dropdown, noAuth, number, text, waitUntil } from '../sdk/index.js';
import { icon } from './icon.js';

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000, weeks: 604_800_000 } as const;

/** Waits durably; a moment already past goes on at once. */
const pause = (until: Date) => {
  const output = { delayUntil: until.toISOString() };
  return until.getTime() <= Date.now() ? output : waitUntil(until, output);
};

const delayFor = defineAction({
  key: 'delayFor',
  name: 'Delay for',
  description: 'Waits for a while before the next step.',
  arguments: {
    delayForUnit: dropdown({
      label: 'Unit',
      required: true,
      default: 'minutes',
      options: Object.keys(UNIT_MS).map((unit) => ({ label: unit, value: unit })),
    }),
    delayForValue: number({ label: 'Amount', required: true, min: 0, max: 1_000_000, acceptsVariables: true }),
  },
  async run(ctx) {
    const { delayForUnit, delayForValue } = ctx.parameters;
    return pause(new Date(Date.now() + delayForValue * UNIT_MS[delayForUnit as keyof typeof UNIT_MS]));
  },
});

const delayUntil = defineAction({
  key: 'delayUntil',
  name: 'Delay until',
  description: 'Waits until a date and time before the next step.',
  arguments: {
    delayUntil: text({
      label: 'Until',
      required: true,
      acceptsVariables: true,
      placeholder: '2026-12-24T18:00:00Z',
      check: (value) => (Number.isNaN(Date.parse(value)) ? 'must be an ISO date-time.' : null),
    }),
  },
  async run(ctx) {
    return pause(new Date(ctx.parameters.delayUntil));
  },
});

export const delay = defineApp({
  key: 'delay',
  name: 'Delay',
  description: 'Pause a flow for a while or until a moment.',
  icon,
  primaryColor: '#64748b',
  categories: ['flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [delayFor, delayUntil],
});
