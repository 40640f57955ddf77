import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFound } from '../../core/domain/errors.js';
import { err, ok } from '../../core/domain/result.js';
import { DIALECTS } from '../support/databases.js';
import { insertUser, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('unit of work contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  it('commits the writes of a work that returns ok, and returns its value', async () => {
    const result = await fx.uow.run(async (repos) => {
      const id = await insertUser(repos, { email: 'kept@example.com' });
      await repos.config.update({ registrationEnabled: true }, T0);
      return ok(id);
    });
    expect(result.ok).toBe(true);
    const id = result.ok ? result.value : 'none';
    expect((await fx.repos.users.findById(id))?.email).toBe('kept@example.com');
    expect((await fx.repos.config.get()).registrationEnabled).toBe(true);
  });

  it('rolls back the writes of a work that returns an error, and returns that error', async () => {
    const result = await fx.uow.run(async (repos) => {
      await insertUser(repos, { email: 'dropped@example.com' });
      await repos.config.update({ registrationEnabled: true }, T0);
      // The work sees its own writes before it refuses.
      expect(await repos.users.findCredentialsByEmail('dropped@example.com')).not.toBeNull();
      return err(notFound('flow'));
    });
    expect(result).toEqual(err({ code: 'resource.not_found', resource: 'flow' }));
    expect(await fx.repos.users.findCredentialsByEmail('dropped@example.com')).toBeNull();
    expect((await fx.repos.config.get()).registrationEnabled).toBe(false);
  });

  it('rolls back the writes of a work that throws, and rethrows the same error', async () => {
    const failure = new Error('boom');
    const run = fx.uow.run(async (repos) => {
      await insertUser(repos, { email: 'thrown@example.com' });
      await repos.config.claimInstallation(T0);
      throw failure;
    });
    await expect(run).rejects.toBe(failure);
    expect(await fx.repos.users.findCredentialsByEmail('thrown@example.com')).toBeNull();
    expect((await fx.repos.config.get()).installationCompleted).toBe(false);
  });

  it('turns a unique violation into an error value and rolls back', async () => {
    await insertUser(fx.repos, { email: 'taken@example.com' });
    const result = await fx.uow.run(async (repos) => {
      await repos.config.update({ registrationEnabled: true }, T0);
      await insertUser(repos, { email: 'taken@example.com' });
      return ok('unreachable');
    });
    expect(result).toEqual(err({ code: 'unique.violation', field: 'email' }));
    expect((await fx.repos.config.get()).registrationEnabled).toBe(false);
  });

  it('leaves the database usable after a rollback', async () => {
    await fx.uow.run(async (repos) => {
      await insertUser(repos, { email: 'first@example.com' });
      return err(notFound('flow'));
    });
    const result = await fx.uow.run(async (repos) => ok(await insertUser(repos, { email: 'first@example.com' })));
    expect(result.ok).toBe(true);
    expect(await fx.repos.users.findCredentialsByEmail('first@example.com')).not.toBeNull();
  });

  it('does not let a rolled-back work affect a concurrent one that commits', async () => {
    const [refused, committed] = await Promise.all([
      fx.uow.run(async (repos) => {
        await insertUser(repos, { email: 'refused@example.com' });
        return err(notFound('flow'));
      }),
      fx.uow.run(async (repos) => ok(await insertUser(repos, { email: 'committed@example.com' }))),
    ]);
    expect(refused.ok).toBe(false);
    expect(committed.ok).toBe(true);
    expect(await fx.repos.users.findCredentialsByEmail('refused@example.com')).toBeNull();
    expect(await fx.repos.users.findCredentialsByEmail('committed@example.com')).not.toBeNull();
  });
});
