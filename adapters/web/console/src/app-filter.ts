import { APP_CATEGORY_LABELS } from './app-categories';

/** What the picker searches and groups an app by. */
export interface Pickable {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly categories: readonly string[];
}

/** An app with the text a search looks through, lower-cased once rather than at every keystroke. */
export interface Indexed<T extends Pickable> {
  readonly app: T;
  readonly name: string;
  readonly key: string;
  readonly text: string;
}

const byName = (a: Pickable, b: Pickable) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** The apps sorted by name, each with its lower-cased name, key and description. */
export const indexApps = <T extends Pickable>(apps: readonly T[]): Indexed<T>[] =>
  [...apps].sort(byName).map((app) => {
    const name = app.name.toLowerCase();
    const key = app.key.toLowerCase();
    return { app, name, key, text: `${name}\n${key}\n${app.description.toLowerCase()}` };
  });

/**
 * How well an app answers the search: its name starting with it first, then containing it, then
 * its key, then the rest (each word found in its name, key or description).
 */
const rank = (entry: Indexed<Pickable>, search: string) => {
  if (entry.name.startsWith(search)) return 0;
  if (entry.name.includes(search)) return 1;
  if (entry.key.includes(search)) return 2;
  return 3;
};

/**
 * The apps that match: in the category (any with `null`), and holding every word of the search in
 * their name, key or description, in any case. Best matches first, then by name.
 */
export const filterApps = <T extends Pickable>(
  index: readonly Indexed<T>[],
  search: string,
  category: string | null,
): T[] => {
  const wanted = search.trim().toLowerCase();
  const words = wanted.split(/\s+/).filter(Boolean);
  const found = index.filter(
    (entry) =>
      (category === null || entry.app.categories.includes(category)) &&
      words.every((word) => entry.text.includes(word)),
  );
  if (!wanted) return found.map((entry) => entry.app);
  return found
    .map((entry, order) => ({ entry, order, rank: rank(entry, wanted) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ entry }) => entry.app);
};

const KNOWN: readonly string[] = Object.keys(APP_CATEGORY_LABELS);

/** The categories that hold at least one of the apps: in the console's order, then unknown ones by key. */
export const categoriesOf = (apps: readonly Pickable[]): string[] => {
  const present = new Set(apps.flatMap((app) => app.categories));
  const unknown = [...present].filter((category) => !KNOWN.includes(category)).sort();
  return [...KNOWN.filter((category) => present.has(category)), ...unknown];
};

/** How many apps the picker remembers as recently used. */
export const RECENT_APPS = 5;

/** The recent keys after `key` was chosen: it first, each key once, at most RECENT_APPS. */
export const rememberApp = (recent: readonly string[], key: string): string[] =>
  [key, ...recent.filter((k) => k !== key)].slice(0, RECENT_APPS);

/** The apps with the recently used ones first, most recent first; the others keep their order. */
export const recentFirst = <T extends Pickable>(apps: readonly T[], recent: readonly string[]): T[] => {
  const at = (app: T) => {
    const index = recent.indexOf(app.key);
    return index < 0 ? recent.length : index;
  };
  return [...apps].sort((a, b) => at(a) - at(b));
};
