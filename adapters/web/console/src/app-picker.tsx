import type { JSX } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { categoryLabel } from './app-categories';
import { categoriesOf, filterApps, indexApps, recentFirst, rememberApp } from './app-filter';
import { SessionContext } from './session';
import type { App } from './types';
import { useId } from './ui';

/** An app's own drawing; decorative, since its name is always written beside it. */
export const AppIcon = ({ app, size = 32 }: { app: Pick<App, 'iconUrl'>; size?: number }) => (
  <img class="app-icon" src={app.iconUrl} alt="" width={size} height={size} loading="lazy" decoding="async" />
);

/** What choosing an entry does: call `pick` (entries are buttons) or go to `href` (entries are links). */
export type AppPickerChoice = { readonly pick: (app: App) => void } | { readonly href: (app: App) => string };

interface AppPickerProps {
  /** The apps this place offers (apps with triggers for a trigger, apps with connections, ...). */
  readonly apps: readonly App[];
  /** Names the list: "Apps for the trigger". */
  readonly label: string;
  readonly choose: AppPickerChoice;
  /** The app chosen now, marked in the list. */
  readonly current?: string | null;
  /** Escape on an empty search, for a picker opened over a choice already made. */
  readonly onCancel?: () => void;
  readonly autoFocus?: boolean;
  /**
   * Names the list of apps recently chosen here (kept in the browser, per user): they come first
   * while nothing is searched.
   */
  readonly remember?: string;
}

/** The apps a user chose lately in one kind of picker, most recent first: kept in localStorage. */
const useRecentApps = (list: string | undefined) => {
  const userId = useContext(SessionContext)?.user.id;
  const storageKey = list && userId ? `conveyor:recent-apps:${list}:${userId}` : null;
  const read = (): string[] => {
    if (!storageKey) return [];
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
      return Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string') : [];
    } catch {
      return [];
    }
  };
  const [recent, setRecent] = useState(read);
  const remember = (key: string) => {
    if (!storageKey) return;
    const next = rememberApp(read(), key);
    setRecent(next);
    try {
      localStorage.setItem(storageKey, JSON.stringify(next));
    } catch {
      // Storage full or refused (a private window): the list is only not remembered.
    }
  };
  return [recent, remember] as const;
};

const isTyping = (event: KeyboardEvent) =>
  event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== ' ';

/** The place in the list of the entry an event came from, or -1. */
const entryIndexOf = (target: EventTarget | null) => {
  const found = target instanceof HTMLElement ? target.closest<HTMLElement>('[data-entry]') : null;
  return found ? Number(found.dataset.entry) : -1;
};

/** Where arrow keys, Home and End go from `at` in a list of `count` (-1: above it); null for other keys. */
const moveFrom = (key: string, at: number, count: number): number | null => {
  if (key === 'ArrowDown' || key === 'ArrowRight') return Math.min(at + 1, count - 1);
  if (key === 'ArrowUp' || key === 'ArrowLeft') return at - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
};

/**
 * The one way to choose an app, wherever the console asks for one: a search (name, key and
 * description, as you type), category chips (those that hold apps here, "All" first), and the
 * apps with their icons. From the search, ↓ enters the list and Enter takes its highlighted app;
 * in the list, arrows, Home and End move, and typing goes back to the search. The chips and the
 * list are each one Tab stop, in which arrows move.
 */
export const AppPicker = ({
  apps,
  label,
  choose,
  current = null,
  onCancel,
  autoFocus = false,
  remember: recentList,
}: AppPickerProps) => {
  const [recent, remember] = useRecentApps(recentList);
  const id = useId('picker');
  const [search, setSearch] = useState('');
  const [chosenCategory, setChosenCategory] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const index = useMemo(() => indexApps(apps), [apps]);
  const categories = useMemo(() => categoriesOf(apps), [apps]);
  const category = chosenCategory !== null && categories.includes(chosenCategory) ? chosenCategory : null;
  const results = useMemo(() => {
    const found = filterApps(index, search, category);
    return search.trim() ? found : recentFirst(found, recent);
  }, [index, search, category, recent]);
  const isRecent = (app: App) => !search.trim() && recent.includes(app.key);
  const highlighted = Math.max(0, Math.min(active, results.length - 1));

  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, []);

  const entry = (at: number) => list.current?.querySelector<HTMLElement>(`[data-entry="${at}"]`) ?? null;
  const focusEntry = (at: number) => {
    setActive(at);
    entry(at)?.focus();
  };
  const searchFor = (text: string) => {
    setSearch(text);
    setActive(0);
  };
  const showCategory = (next: string | null) => {
    setChosenCategory(next);
    setActive(0);
  };

  const onSearchKey = (event: JSX.TargetedKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && results.length > 0) {
      event.preventDefault();
      focusEntry(highlighted);
    } else if (event.key === 'Enter') {
      // Inside a form too, Enter takes the app rather than sending the form.
      event.preventDefault();
      entry(highlighted)?.click();
    } else if (event.key === 'Escape') {
      // Handled here, it goes no further (a side panel around the picker stays open).
      if (search || onCancel) event.preventDefault();
      if (search) searchFor('');
      else onCancel?.();
    }
  };
  const onListKey = (event: JSX.TargetedKeyboardEvent<HTMLUListElement>) => {
    const at = entryIndexOf(event.target);
    const to = moveFrom(event.key, at, results.length);
    if (to !== null) {
      event.preventDefault();
      if (to < 0) input.current?.focus();
      else focusEntry(to);
    } else if (event.key === 'Escape' || isTyping(event)) {
      event.preventDefault();
      if (isTyping(event)) searchFor(search + event.key);
      input.current?.focus();
    }
  };
  const counted = `${results.length} of ${apps.length} app${apps.length === 1 ? '' : 's'}`;
  return (
    <div class="app-picker">
      <div class="app-picker-search">
        <label class="visually-hidden" for={`${id}-search`}>
          Search apps
        </label>
        <input
          ref={input}
          id={`${id}-search`}
          type="search"
          placeholder="Search apps by name or what they do…"
          autoComplete="off"
          value={search}
          onInput={(e) => searchFor(e.currentTarget.value)}
          onKeyDown={onSearchKey}
          aria-controls={`${id}-list`}
          aria-describedby={`${id}-count ${id}-keys`}
        />
        <span class="visually-hidden" id={`${id}-keys`}>
          Down arrow enters the list; Enter takes the highlighted app.
        </span>
        <span class="muted" id={`${id}-count`} aria-live="polite">
          {counted}
        </span>
      </div>
      {categories.length > 0 && (
        // Native radios: one chip is chosen, arrows move the choice, and the group is one Tab stop.
        <fieldset class="chips">
          <legend class="visually-hidden">Categories</legend>
          {[null, ...categories].map((chip) => (
            <label key={chip ?? ''} class="chip">
              <input
                type="radio"
                name={`${id}-category`}
                checked={category === chip}
                onChange={() => showCategory(chip)}
              />
              {chip === null ? 'All' : categoryLabel(chip)}
            </label>
          ))}
        </fieldset>
      )}
      {results.length === 0 && (
        <div class="empty" role="status">
          {apps.length === 0
            ? 'No app is available here.'
            : `No app matches “${search.trim()}”${category ? ` in ${categoryLabel(category)}` : ''}.`}{' '}
          {category && (
            <button type="button" class="link" onClick={() => showCategory(null)}>
              Search all categories
            </button>
          )}
        </div>
      )}
      <ul class="app-picker-list" id={`${id}-list`} aria-label={label} ref={list} onKeyDown={onListKey}>
        {results.map((app, at) => {
          const entryProps = {
            class: `app-entry${at === highlighted ? ' is-highlighted' : ''}`,
            'data-entry': at,
            tabIndex: at === highlighted ? 0 : -1,
            'aria-describedby': `${id}-${app.key}-about`,
            'aria-current': app.key === current ? ('true' as const) : undefined,
            onFocus: () => setActive(at),
          };
          const content = (
            <>
              <AppIcon app={app} />
              <span class="app-entry-text">
                <span class="app-entry-name" id={`${id}-${app.key}-name`}>
                  {app.name}
                </span>
                {/* Read as the entry's description (aria-describedby), not as part of its name. */}
                <span class="app-entry-about" id={`${id}-${app.key}-about`} aria-hidden="true">
                  {app.description}
                </span>
              </span>
              {isRecent(app) && <span class="tag app-entry-recent">Recently used</span>}
            </>
          );
          return (
            <li key={app.key}>
              {'href' in choose ? (
                <a href={choose.href(app)} onClick={() => remember(app.key)} {...entryProps}>
                  {content}
                </a>
              ) : (
                <button
                  type="button"
                  onClick={() => {
                    remember(app.key);
                    choose.pick(app);
                  }}
                  {...entryProps}
                >
                  {content}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
};

/** An app already chosen: its icon and name, a link to its page, and a way to choose another. */
export const ChosenApp = ({
  app,
  change,
  disabled = false,
  newTab = false,
}: {
  app: App;
  change: { label: string; onClick: () => void };
  disabled?: boolean;
  /** The page opens beside the current one (the flow editor, whose unsaved edits stay). */
  newTab?: boolean;
}) => (
  <div class="chosen-app">
    <AppIcon app={app} size={28} />
    <strong>{app.name}</strong>
    <a href={`/app/${app.key}`} {...(newTab && { target: '_blank', rel: 'noopener' })}>
      About {app.name}
    </a>
    <button type="button" class="small" onClick={change.onClick} disabled={disabled}>
      {change.label}
    </button>
  </div>
);
