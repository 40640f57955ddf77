import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFound } from '../../core/domain/errors.js';
import { err, ok } from '../../core/domain/result.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertFlow, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const LEASE = 10_000;

describe.each(DIALECTS)('listener subscriptions and messages (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let flowId: string;

  beforeEach(async () => {
    fx = await openFixture(dialect);
    flowId = await insertFlow(fx.repos);
  });
  afterEach(() => fx.close());

  it('are wanted as starting; a new version or connection raises the revision, the same one does not', async () => {
    const { listeners } = fx.repos;
    await listeners.want(flowId, 'v1', null, T0);
    expect(await listeners.find(flowId)).toEqual({
      flowId,
      revision: 1,
      connectionId: null,
      holder: null,
      leaseUntil: null,
      status: 'starting',
      failures: 0,
      lastError: null,
      lastErrorAt: null,
      updatedAt: T0,
    });
    await listeners.want(flowId, 'v1', null, at(MINUTE));
    expect((await listeners.find(flowId))?.revision).toBe(1);
    await listeners.want(flowId, 'v2', null, at(MINUTE));
    expect((await listeners.find(flowId))?.revision).toBe(2);
    await listeners.want(flowId, 'v2', 'c1', at(MINUTE));
    expect(await listeners.find(flowId)).toMatchObject({ revision: 3, connectionId: 'c1' });
    await listeners.touchConnection('c1');
    await listeners.touchConnection('other');
    expect((await listeners.find(flowId))?.revision).toBe(4);
    expect(await listeners.findMany([flowId, 'nope'])).toHaveLength(1);
    await listeners.drop(flowId);
    expect(await listeners.find(flowId)).toBeNull();
  });

  it('are held by one holder at a time, until its lease runs out or it lets go', async () => {
    const { listeners } = fx.repos;
    await listeners.want(flowId, 'v1', null, T0);
    // Two processes claiming at once: one gets it.
    const [a, b] = await Promise.all([
      listeners.claim('a', T0, at(LEASE), 10),
      listeners.claim('b', T0, at(LEASE), 10),
    ]);
    expect([...a, ...b]).toEqual([expect.objectContaining({ flowId, revision: 1 })]);
    const [winner, loser] = a.length === 1 ? ['a', 'b'] : ['b', 'a'];
    expect((await listeners.renew(winner, at(2 * LEASE))).map((l) => l.flowId)).toEqual([flowId]);
    expect(await listeners.renew(loser, at(2 * LEASE))).toEqual([]);
    expect(await listeners.claim('c', at(2 * LEASE - 1), at(3 * LEASE), 10)).toEqual([]);
    // The winner stops renewing: once its lease is over, another takes the subscription over.
    expect(await listeners.claim('c', at(2 * LEASE + 1), at(3 * LEASE), 10)).toEqual([
      expect.objectContaining({ flowId, holder: 'c', leaseUntil: at(3 * LEASE) }),
    ]);
    expect(await listeners.renew(winner, at(4 * LEASE))).toEqual([]);
    await listeners.release('c', [flowId]);
    expect(await listeners.claim('d', at(2 * LEASE + 2), at(3 * LEASE), 1)).toEqual([
      expect.objectContaining({ flowId, holder: 'd' }),
    ]);
  });

  it('record the state their holder reports, keeping the last error when none is given', async () => {
    const { listeners } = fx.repos;
    await listeners.want(flowId, 'v1', null, T0);
    await listeners.claim('a', T0, at(LEASE), 1);
    await listeners.report(flowId, 'a', { status: 'failing', failures: 2, lastError: 'refused', now: at(MINUTE) });
    await listeners.report(flowId, 'someone else', { status: 'listening', failures: 0, now: at(MINUTE) });
    expect(await listeners.find(flowId)).toMatchObject({
      status: 'failing',
      failures: 2,
      lastError: 'refused',
      lastErrorAt: at(MINUTE),
    });
    await listeners.report(flowId, 'a', { status: 'listening', failures: 0, now: at(2 * MINUTE) });
    expect(await listeners.find(flowId)).toMatchObject({
      status: 'listening',
      failures: 0,
      lastError: 'refused',
      updatedAt: at(2 * MINUTE),
    });
  });

  it('remember message keys once, in a unit of work only when it commits, until pruned', async () => {
    const { listeners } = fx.repos;
    expect(await listeners.rememberMessages(flowId, ['id:1', 'id:2', 'id:1'], T0)).toEqual(['id:1', 'id:2']);
    expect(await listeners.rememberMessages(flowId, ['id:2', 'id:3'], at(MINUTE))).toEqual(['id:3']);
    await fx.uow.run(async (tx) => {
      await tx.listeners.rememberMessages(flowId, ['id:4'], T0);
      return err(notFound('flow'));
    });
    await fx.uow.run(async (tx) => ok(await tx.listeners.rememberMessages(flowId, ['id:4'], at(MINUTE))));
    expect(await listeners.rememberMessages(flowId, ['id:4'], at(MINUTE))).toEqual([]);
    expect(await listeners.forgetMessages(at(1))).toBe(2);
    expect(await listeners.rememberMessages(flowId, ['id:1', 'id:3'], at(MINUTE))).toEqual(['id:1']);
  });
});
