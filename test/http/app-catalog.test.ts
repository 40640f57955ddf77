import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CATEGORY_LABELS } from '../../adapters/web/console/src/app-categories.js';
import { APP_CAPABILITIES, APP_CATEGORIES } from '../../core/domain/app.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

interface ListedApp {
  key: string;
  name: string;
  categories: string[];
  triggerCount: number;
  actionCount: number;
  capabilities: string[];
}

/**
 * The catalogue as the app picker reads it: each app's categories, and Automatisch's filters with
 * the picker's `category`. Expectations are counted from the unfiltered list, so that they hold
 * whichever apps are built in.
 */
describe('GET /apps: categories and filters', () => {
  let instance: TestInstance;
  let token: string;
  let all: ListedApp[];
  const list = async (query: string) => {
    const res = await instance.request('GET', `/apps${query}`, { token });
    expect(res.status, query).toBe(200);
    expect(res.body.meta.type).toBe('App');
    return res.body.data as ListedApp[];
  };
  const keys = (apps: readonly ListedApp[]) => apps.map((app) => app.key);

  beforeAll(async () => {
    instance = await startTestInstance('sqlite');
    token = await installAndSignIn(instance);
    all = await list('');
  });
  afterAll(() => instance.close());

  it('answers each app with the categories it declares', async () => {
    expect(all.length).toBe(instance.conveyor.useCases.listApps({}).length);
    for (const app of instance.conveyor.useCases.listApps({})) {
      expect(all.find((listed) => listed.key === app.key)?.categories, app.key).toEqual(app.categories);
    }
    for (const app of all) for (const category of app.categories) expect(APP_CATEGORIES).toContain(category);
    const github = await instance.request('GET', '/apps/github', { token });
    expect(github.body.data.categories).toEqual(['developer-tools']);
    expect(github.body.data.iconUrl).toBe('/apps/github/assets/favicon.svg');
  });

  it('answers each app with its capabilities: the language models and toolboxes agents use, none for others', async () => {
    for (const app of instance.conveyor.useCases.listApps({})) {
      expect(all.find((listed) => listed.key === app.key)?.capabilities, app.key).toEqual(app.capabilities ?? []);
    }
    expect(all.find((app) => app.key === 'github')?.capabilities).toEqual([]);
    expect(all.find((app) => app.key === 'mcp-client')?.capabilities).toEqual(['toolbox']);
    const document = (await instance.request('GET', '/openapi.json', { mount: '/api' })).body;
    expect(document.components.schemas.App.properties.capabilities.items.enum).toEqual([...APP_CAPABILITIES]);
  });

  it('filters by category: exactly the apps that sit in it', async () => {
    const used = new Set(all.flatMap((app) => app.categories));
    expect(used.size).toBeGreaterThan(3);
    for (const category of used) {
      const expected = keys(all.filter((app) => app.categories.includes(category)));
      expect(keys(await list(`?category=${category}`)), category).toEqual(expected);
    }
    const unused = APP_CATEGORIES.filter((category) => !used.has(category));
    for (const category of unused) expect(await list(`?category=${category}`), category).toEqual([]);
    expect(keys(await list('?category=data-and-databases'))).toEqual(expect.arrayContaining(['postgresql', 'redis']));
    expect(keys(await list('?category=data-and-databases'))).not.toContain('github');
  });

  it('filters by capability: the language models an agent may use, the toolboxes', async () => {
    for (const capability of APP_CAPABILITIES) {
      const expected = instance.conveyor.useCases.listApps({}).filter((app) => app.capabilities?.includes(capability));
      const listed = await list(`?capability=${capability}`);
      expect(keys(listed), capability).toEqual(expected.map((app) => app.key));
      for (const app of listed) expect(app.capabilities).toContain(capability);
    }
    expect(all.every((app) => Array.isArray(app.capabilities))).toBe(true);
    const bad = await instance.request('GET', '/apps?capability=telepathy', { token });
    expect(bad.status).toBe(422);
  });

  it('keeps Automatisch’s filters: a part of the name in any case, apps with triggers, apps with actions', async () => {
    expect(keys(await list('?name=GITH'))).toEqual(keys(all.filter((app) => app.name.toLowerCase().includes('gith'))));
    expect(keys(await list('?name=gres'))).toContain('postgresql');
    expect(await list('?name=no-app-has-this-name')).toEqual([]);
    const withTriggers = await list('?onlyWithTriggers=true');
    expect(keys(withTriggers)).toEqual(keys(all.filter((app) => app.triggerCount > 0)));
    expect(withTriggers.length).toBeLessThan(all.length);
    const withActions = await list('?onlyWithActions=true');
    expect(keys(withActions)).toEqual(keys(all.filter((app) => app.actionCount > 0)));
    expect(withActions.length).toBeLessThan(all.length);
    expect(await list('?onlyWithTriggers=false')).toEqual(all);
  });

  it('combines the filters', async () => {
    const expected = all.filter((app) => app.categories.includes('messaging-and-queues') && app.triggerCount > 0);
    expect(expected.length).toBeGreaterThan(0);
    expect(keys(await list('?category=messaging-and-queues&onlyWithTriggers=true'))).toEqual(keys(expected));
    const gitTools = all.filter((app) => app.categories.includes('developer-tools') && /git/i.test(app.name));
    expect(keys(gitTools)).toContain('github');
    expect(keys(await list('?category=developer-tools&name=git'))).toEqual(keys(gitTools));
  });

  it('refuses a category that does not exist, naming the ones that do', async () => {
    const res = await instance.request('GET', '/apps?category=Developer%20tools', { token });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      errors: { category: [`must be one of: ${APP_CATEGORIES.join(', ')}.`] },
      meta: { type: 'ValidationError' },
    });
  });

  it('is for signed-in callers only', async () => {
    expect((await instance.request('GET', '/apps?category=ai')).status).toBe(401);
  });

  it('documents the field and the filter in the OpenAPI document', async () => {
    const document = (await instance.request('GET', '/openapi.json', { mount: '/api' })).body;
    const parameters = document.paths['/api/v1/apps'].get.parameters.map((p: { name: string }) => p.name);
    expect(parameters).toEqual(['name', 'onlyWithTriggers', 'onlyWithActions', 'category', 'capability']);
    const [category, capability] = document.paths['/api/v1/apps'].get.parameters.slice(3);
    expect(category.schema.enum).toEqual([...APP_CATEGORIES]);
    expect(capability.schema.enum).toEqual([...APP_CAPABILITIES]);
    const { properties } = document.components.schemas.App;
    expect(properties.categories.items.enum).toEqual([...APP_CATEGORIES]);
    expect(properties.capabilities.items.enum).toEqual([...APP_CAPABILITIES]);
  });
});

describe('the console’s category labels', () => {
  it('name every category of the domain, in its order', () => {
    expect(Object.keys(APP_CATEGORY_LABELS)).toEqual([...APP_CATEGORIES]);
    for (const label of Object.values(APP_CATEGORY_LABELS)) expect(label).toMatch(/^[A-Z]/);
  });
});
