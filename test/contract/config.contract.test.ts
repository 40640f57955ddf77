import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFound } from '../../core/domain/errors.js';
import { err, ok } from '../../core/domain/result.js';
import { DIALECTS } from '../support/databases.js';
import { at, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

describe.each(DIALECTS)('config repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  beforeEach(async () => {
    fx = await openFixture(dialect);
  });
  afterEach(() => fx.close());

  it('starts not installed, with registration disabled', async () => {
    expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: false, registrationEnabled: false });
  });

  it('claims the installation once', async () => {
    expect(await fx.repos.config.claimInstallation(T0)).toBe(true);
    expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: true, registrationEnabled: false });
    expect(await fx.repos.config.claimInstallation(at(MINUTE))).toBe(false);
    expect((await fx.repos.config.get()).installationCompleted).toBe(true);
  });

  it('lets exactly one of several concurrent units of work claim the installation', async () => {
    const claim = () => fx.uow.run(async (repos) => ok(await repos.config.claimInstallation(T0)));
    const results = await Promise.all([claim(), claim(), claim(), claim(), claim()]);
    const claims = results.map((r) => (r.ok ? r.value : 'failed'));
    expect(claims.filter((c) => c === true)).toHaveLength(1);
    expect(claims.filter((c) => c === false)).toHaveLength(4);
    expect((await fx.repos.config.get()).installationCompleted).toBe(true);
  });

  it('releases the claim when the installing unit of work rolls back', async () => {
    const refused = await fx.uow.run(async (repos) => {
      expect(await repos.config.claimInstallation(T0)).toBe(true);
      return err(notFound('user'));
    });
    expect(refused.ok).toBe(false);
    expect((await fx.repos.config.get()).installationCompleted).toBe(false);
    expect(await fx.repos.config.claimInstallation(at(MINUTE))).toBe(true);
  });

  it('persists a change of registrationEnabled and leaves the installation alone', async () => {
    await fx.repos.config.update({ registrationEnabled: true }, T0);
    expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: false, registrationEnabled: true });

    await fx.repos.config.claimInstallation(at(MINUTE));
    await fx.repos.config.update({}, at(2 * MINUTE));
    expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: true, registrationEnabled: true });

    await fx.repos.config.update({ registrationEnabled: false }, at(3 * MINUTE));
    expect(await fx.repos.config.get()).toMatchObject({ installationCompleted: true, registrationEnabled: false });
  });

  it('stamps updated_at on a change', async () => {
    await fx.repos.config.update({ registrationEnabled: true }, at(5 * MINUTE));
    const row = await fx.handle.db.selectFrom('config').select('updated_at').executeTakeFirstOrThrow();
    expect(fx.handle.codec.readTimestamp(row.updated_at)).toEqual(at(5 * MINUTE));
  });

  it('starts with the default appearance and templates off', async () => {
    expect(await fx.repos.config.get()).toEqual({
      installationCompleted: false,
      registrationEnabled: false,
      enableTemplates: false,
      title: null,
      primaryMainColor: null,
      primaryDarkColor: null,
      primaryLightColor: null,
      logoSvgData: null,
      footerLinks: [],
    });
  });

  it('persists appearance and templates; an absent key keeps its value and null clears it', async () => {
    const footerLinks = [{ label: 'Help', url: 'https://help.example' }];
    await fx.repos.config.update(
      { title: 'Acme', primaryMainColor: '#112233', footerLinks, enableTemplates: true },
      T0,
    );
    await fx.repos.config.update({ primaryDarkColor: '#000000' }, at(MINUTE));
    expect(await fx.repos.config.get()).toMatchObject({
      title: 'Acme',
      primaryMainColor: '#112233',
      primaryDarkColor: '#000000',
      footerLinks,
      enableTemplates: true,
    });
    await fx.repos.config.update({ title: null, enableTemplates: false }, at(2 * MINUTE));
    expect(await fx.repos.config.get()).toMatchObject({
      title: null,
      primaryMainColor: '#112233',
      enableTemplates: false,
    });
  });
});
