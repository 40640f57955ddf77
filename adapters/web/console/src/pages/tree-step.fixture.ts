import type { Step, StructuralType } from '../types';

/** A step of a flow's tree for the console's tests; positions are flow-wide and depth-first, as the server gives them. */
export const treeStep = (
  id: string,
  position: number,
  parentStepId: string | null,
  structuralType: StructuralType = 'single',
  more: Partial<Step> = {},
): Step => ({
  id,
  flowId: 'f',
  type: id === 't' ? 'trigger' : 'action',
  appKey: null,
  key: null,
  name: null,
  position,
  status: 'completed',
  parameters: {},
  connectionId: null,
  webhookUrl: null,
  updatedAt: 0,
  iconUrl: null,
  structuralType,
  parentStepId,
  branchConditions: structuralType === 'branch' ? [] : null,
  ...more,
});
