import { LOOP_DEFAULT_MAX_ITEMS, LOOP_ITEMS_LIMIT, STRUCTURAL_ACTIONS } from '../../../core/domain/step-tree.js';
import { defineAction, defineApp, noAuth, number, text } from '../sdk/index.js';
import { icon } from './icon.js';

/** A literal list must be JSON text of an array; a variable is only known when the flow runs. */
const listText = (value: string): string | null => {
  try {
    return Array.isArray(JSON.parse(value)) ? null : 'must be a list: JSON text of an array, or a variable giving one.';
  } catch {
    return 'must be a list: JSON text of an array, or a variable giving one.';
  }
};

/**
 * What a loop step is made of (core/domain/step-tree.ts). A loop is added with
 * `POST /flows/:flowId/steps` and `structuralType: loop`, not chosen for a step, and the engine
 * runs the steps inside it once per item itself: its `run` is never called.
 */
const loopOverItems = defineAction({
  key: STRUCTURAL_ACTIONS.loop.key,
  name: 'Loop over items',
  description: 'Runs the steps inside it once for each item of a list.',
  arguments: {
    items: text({
      label: 'Items',
      required: true,
      acceptsVariables: true,
      description: 'The list to go through: a variable that gives a list, or JSON text of one.',
      placeholder: '{{step.1.body.orders}}',
      check: listText,
    }),
    maxItems: number({
      label: 'At most',
      integer: true,
      min: 1,
      max: LOOP_ITEMS_LIMIT,
      description: `The most items it goes through (${LOOP_DEFAULT_MAX_ITEMS} when empty).`,
    }),
  },
  async run(): Promise<never> {
    throw new Error("A loop is evaluated by the engine as part of the flow's tree; it does not run as an action.");
  },
});

export const loop = defineApp({
  key: STRUCTURAL_ACTIONS.loop.appKey,
  name: 'Loop',
  description: 'Repeat steps for each item of a list.',
  icon,
  primaryColor: '#7c3aed',
  categories: ['flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [loopOverItems],
});
