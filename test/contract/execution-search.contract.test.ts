import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture } from './persistence-fixture.js';

describe.each(DIALECTS)('searching run data (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  /** A finished run of `flowId` at `minute`, whose one record holds `text`. */
  const run = async (flowId: string, minute: number, text: string) => {
    const id = randomUUID();
    const now = at(minute * MINUTE);
    await fx.repos.executions.insert({
      id,
      flowId,
      testRun: false,
      untilStepId: null,
      retryOf: null,
      flowVersion: null,
      now,
    });
    await fx.repos.executions.recordStep(
      {
        id: randomUUID(),
        executionId: id,
        stepId: 'step-a',
        position: 1,
        status: 'success',
        dataIn: {},
        dataOut: { text },
        errorDetails: null,
        now,
      },
      { kind: 'finish', status: 'success', tasks: 1 },
    );
    return id;
  };

  it('reads only the newest runs the other filters keep, as many as its window', async () => {
    const flowId = await insertFlow(fx.repos);
    const other = await insertFlow(fx.repos);
    const found = [];
    for (let minute = 1; minute <= 5; minute++) found.push(await run(flowId, minute, `needle ${minute}`));
    // Newer runs of another flow: outside the flow filter, they take no room in its window.
    for (let minute = 6; minute <= 8; minute++) await run(other, minute, 'hay');
    const search = (window?: number) =>
      fx.repos.executions.list(
        { ownerId: null, flowId, dataContains: 'NEEDLE', dataSearchWindow: window },
        { page: 1, perPage: 10 },
      );

    const all = await search();
    expect(all.total).toBe(5);
    expect(all.items.map((e) => e.id)).toEqual([...found].reverse());
    const windowed = await search(3);
    expect(windowed.total).toBe(3);
    expect(windowed.items.map((e) => e.id)).toEqual(found.slice(2).reverse());
    // The window counts runs, not matches: a match past it is not read.
    expect(
      (
        await fx.repos.executions.list(
          { ownerId: null, dataContains: 'needle 1', dataSearchWindow: 7 },
          { page: 1, perPage: 10 },
        )
      ).total,
    ).toBe(0);
    expect(
      (
        await fx.repos.executions.list(
          { ownerId: null, dataContains: 'needle 1', dataSearchWindow: 8 },
          { page: 1, perPage: 10 },
        )
      ).total,
    ).toBe(1);
  });
});
