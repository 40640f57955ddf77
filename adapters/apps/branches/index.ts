import { PATHS_MODES, STRUCTURAL_ACTIONS } from '../../../core/domain/step-tree.js';
import { defineAction, defineApp, dropdown, noAuth } from '../sdk/index.js';
import { icon } from './icon.js';

/**
 * What a paths step and its branches are made of (core/domain/step-tree.ts). They are added with
 * `POST /flows/:flowId/steps` and a `structuralType`, not chosen for a step, and the engine
 * evaluates them itself: their `run` is never called.
 */
const evaluatedByTheEngine = (what: string) => async (): Promise<never> => {
  throw new Error(`${what} is evaluated by the engine as part of the flow's tree; it does not run as an action.`);
};

const execute = defineAction({
  key: STRUCTURAL_ACTIONS.paths.key,
  name: 'Paths',
  description: 'Splits the flow into branches, each taken when its conditions hold.',
  arguments: {
    mode: dropdown({
      label: 'Branches to take',
      default: 'first',
      description:
        "The first branch whose conditions hold, or every branch whose conditions hold, in order. A branch without conditions is taken when no other branch's conditions hold.",
      options: PATHS_MODES.map((value) => ({
        label: value === 'first' ? 'The first that matches' : 'Every one that matches',
        value,
      })),
    }),
  },
  run: evaluatedByTheEngine('A paths step'),
});

const executeBranch = defineAction({
  key: STRUCTURAL_ACTIONS.branch.key,
  name: 'Branch',
  description: 'One branch of a paths step: its steps run when its conditions hold.',
  arguments: {},
  run: evaluatedByTheEngine('A branch'),
});

export const branches = defineApp({
  key: STRUCTURAL_ACTIONS.paths.appKey,
  name: 'Branches',
  description: 'Send a flow down different paths depending on its data.',
  icon,
  primaryColor: '#0d9488',
  categories: ['flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [execute, executeBranch],
});
