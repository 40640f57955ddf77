import { describe, expect, it } from 'vitest';
import { categoriesOf, filterApps, indexApps, type Pickable, recentFirst, rememberApp } from './app-filter';

const app = (key: string, name: string, description: string, categories: string[] = []): Pickable => ({
  key,
  name,
  description,
  categories,
});

const apps = [
  app('postgresql', 'PostgreSQL', 'Query a Postgres database.', ['data-and-databases']),
  app('github', 'GitHub', 'Issues and pull requests.', ['developer-tools']),
  app('redis', 'Redis', 'Keys, lists and streams.', ['data-and-databases', 'messaging-and-queues']),
  app('http-request', 'HTTP Request', 'Call any API, such as GitHub’s.', ['developer-tools']),
  app('gitea', 'Gitea', 'A self-hosted git forge.', ['developer-tools']),
  app('embedded', 'Acme', 'An embedder’s app with a category of its own.', ['acme-tools']),
  app('plain', 'Zed', 'No category at all.'),
];
const index = indexApps(apps);
const keys = (search: string, category: string | null = null) => filterApps(index, search, category).map((a) => a.key);

describe('the app picker’s search', () => {
  it('lists every app by name when nothing is asked', () => {
    expect(keys('')).toEqual(['embedded', 'gitea', 'github', 'http-request', 'postgresql', 'redis', 'plain']);
    expect(keys('   ')).toEqual(keys(''));
  });

  it('matches the name, the key and the description, in any case', () => {
    expect(keys('POSTGRES')).toEqual(['postgresql']);
    expect(keys('http-req')).toEqual(['http-request']);
    expect(keys('STREAMS')).toEqual(['redis']);
    expect(keys('nothing like this')).toEqual([]);
  });

  it('puts names that start with the search first, then names, keys and descriptions that hold it', () => {
    expect(keys('git')).toEqual(['gitea', 'github', 'http-request']);
    expect(keys('hub')).toEqual(['github', 'http-request']);
  });

  it('wants every word, wherever each is', () => {
    expect(keys('git forge')).toEqual(['gitea']);
    expect(keys('redis lists')).toEqual(['redis']);
    expect(keys('redis forge')).toEqual([]);
  });

  it('keeps to the chosen category, with the search', () => {
    expect(keys('', 'data-and-databases')).toEqual(['postgresql', 'redis']);
    expect(keys('git', 'developer-tools')).toEqual(['gitea', 'github', 'http-request']);
    expect(keys('git', 'data-and-databases')).toEqual([]);
  });
});

describe('the app picker’s chips', () => {
  it('offer only the categories that hold apps, in the console’s order, unknown ones last', () => {
    expect(categoriesOf(apps)).toEqual(['developer-tools', 'data-and-databases', 'messaging-and-queues', 'acme-tools']);
    expect(categoriesOf(apps.filter((a) => a.key === 'github'))).toEqual(['developer-tools']);
    expect(categoriesOf([])).toEqual([]);
  });
});

describe('recently used apps', () => {
  it('remembers the last few apps chosen, the latest first and each once', () => {
    let recent: string[] = [];
    for (const key of ['a', 'b', 'c', 'b', 'd', 'e', 'f']) recent = rememberApp(recent, key);
    expect(recent).toEqual(['f', 'e', 'd', 'b', 'c']);
  });

  it('lists them first, most recent first, the others in their order', () => {
    const listed = recentFirst(filterApps(index, '', null), ['redis', 'github', 'gone']);
    expect(listed.map((a) => a.key)).toEqual([
      'redis',
      'github',
      'embedded',
      'gitea',
      'http-request',
      'postgresql',
      'plain',
    ]);
  });
});
