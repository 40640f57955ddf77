import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { isFlowStop } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
afterAll(() => catalog.close());

const filter = (or: unknown) =>
  catalog.runAction({
    appKey: 'filter',
    key: 'continueIfMatches',
    parameters: { or },
    connection: null,
    execution: null,
  });

describe('filter: continueIfMatches', () => {
  it('goes on when every condition of one group holds, showing each result', async () => {
    const result = await filter([
      { and: [{ key: 'paid', operator: 'equal', value: 'pending' }] },
      {
        and: [
          { key: '120', operator: 'greater_than', value: 100 },
          { key: 'a@example.com', operator: 'contains', value: '@' },
        ],
      },
    ]);
    expect(isFlowStop(result)).toBe(false);
    expect(result).toEqual({
      matched: true,
      matchedGroup: 1,
      or: [
        { and: [{ key: 'paid', operator: 'equal', value: 'pending', holds: false }] },
        {
          and: [
            { key: '120', operator: 'greater_than', value: 100, holds: true },
            { key: 'a@example.com', operator: 'contains', value: '@', holds: true },
          ],
        },
      ],
    });
  });

  it('tells the engine to stop the run when no group matches', async () => {
    const result = await filter([{ and: [{ key: '', operator: 'is_not_empty' }] }]);
    expect(isFlowStop(result)).toBe(true);
    if (!isFlowStop(result)) return;
    expect(result.output).toEqual({
      matched: false,
      matchedGroup: null,
      or: [{ and: [{ key: '', operator: 'is_not_empty', holds: false }] }],
    });
  });

  it('accepts the groups as JSON text, as a rendered template gives them', async () => {
    const result = await filter('[{"and":[{"key":"3","operator":"less_than_or_equal","value":"3"}]}]');
    expect(result).toMatchObject({ matched: true, matchedGroup: 0 });
  });

  it.each([
    [undefined, 'is required.'],
    [[], 'needs at least one group of conditions.'],
    [[{ and: [] }], 'has a group without conditions.'],
    [
      [{ and: [{ key: 1, operator: 'like', value: 1 }] }],
      expect.stringMatching(/^has an unknown operator; use one of: equal, /),
    ],
    [{ and: [] }, expect.stringMatching(/^must be a list of groups/)],
    [[{ or: [] }], expect.stringMatching(/^must be a list of groups/)],
  ])('refuses %j', async (or, message) => {
    await expect(filter(or)).rejects.toMatchObject({ name: 'InvalidParametersError', fields: { or: [message] } });
  });
});
