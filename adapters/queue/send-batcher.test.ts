import { describe, expect, it } from 'vitest';
import { createSendBatcher } from './send-batcher.js';

/** Lets scheduled flushes and the promise callbacks before them run. */
const tick = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('send batcher', () => {
  it('sends at once while the database keeps up, and together what arrives while it is busy', async () => {
    const batches: string[][] = [];
    const finish: (() => void)[] = [];
    const send = createSendBatcher<{ id: string }>(
      (rows) =>
        new Promise((resolve) => {
          batches.push(rows.map((row) => row.id));
          finish.push(() => resolve(new Set(rows.map((row) => row.id))));
        }),
    );
    const a = send({ id: 'a' });
    await tick();
    const b = send({ id: 'b' });
    await tick();
    // Two inserts under way: these wait for one of them.
    const rest = ['c', 'd', 'e'].map((id) => send({ id }));
    await tick();
    expect(batches).toEqual([['a'], ['b']]);

    finish[0]?.();
    expect(await a).toBe('a');
    await tick();
    expect(batches).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    finish[1]?.();
    finish[2]?.();
    expect(await Promise.all([b, ...rest])).toEqual(['b', 'c', 'd', 'e']);
  });

  it('rejects the sends of a failed insert only, and says which rows a conflict skipped', async () => {
    let calls = 0;
    const send = createSendBatcher<{ id: string }>(async (rows) => {
      calls++;
      if (calls === 1) throw new Error('disk full');
      return new Set(rows.map((row) => row.id).filter((id) => id !== 'dup'));
    });
    await expect(send({ id: 'x' })).rejects.toThrow('disk full');
    const [ok, dup] = await Promise.all([send({ id: 'y' }), send({ id: 'dup' })]);
    expect([ok, dup]).toEqual(['y', null]);
  });
});
