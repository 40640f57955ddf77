import { useState } from 'preact/hooks';

/** Entries of an object or array shown at first, and added by each "show more". */
export const PAGE_SIZE = 50;
/** Levels open at first: the shape of a webhook request (its body's fields) without a click. */
const OPEN_DEPTH = 3;

type Container = Record<string, unknown> | unknown[];
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

const summaryOf = (value: Container) =>
  Array.isArray(value)
    ? `[${value.length} ${value.length === 1 ? 'item' : 'items'}]`
    : `{${Object.keys(value).length} ${Object.keys(value).length === 1 ? 'key' : 'keys'}}`;

const Scalar = ({ value }: { value: unknown }) => {
  if (value === null) return <span class="json-null">null</span>;
  if (typeof value === 'string') return <span class="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span class="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span class="json-boolean">{String(value)}</span>;
  return <span class="json-null">{value === undefined ? 'undefined' : String(value)}</span>;
};

const Name = ({ name }: { name: string | null }) =>
  name === null ? null : (
    <>
      <span class="json-key">{name}</span>
      <span class="json-colon">: </span>
    </>
  );

/** One entry: a value, or an object or array that folds open and closed with a button. */
const Node = ({ name, value, depth }: { name: string | null; value: unknown; depth: number }) => {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const [shown, setShown] = useState(PAGE_SIZE);
  if (!isContainer(value)) {
    return (
      <li class="json-leaf">
        <Name name={name} />
        <Scalar value={value} />
      </li>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const left = entries.length - shown;
  return (
    <li class="json-branch">
      <button
        type="button"
        class="json-toggle"
        aria-expanded={open}
        disabled={entries.length === 0}
        onClick={() => setOpen(!open)}
      >
        <span class="json-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <Name name={name} />
        <span class="json-summary">{summaryOf(value)}</span>
      </button>
      {open && entries.length > 0 && (
        <ul class="json-children">
          {entries.slice(0, shown).map(([key, item]) => (
            <Node key={key} name={key} value={item} depth={depth + 1} />
          ))}
          {left > 0 && (
            <li>
              <button type="button" class="small json-more" onClick={() => setShown(shown + PAGE_SIZE)}>
                Show {Math.min(left, PAGE_SIZE)} more ({left} not shown)
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
};

/**
 * A JSON value to read: a tree whose objects and arrays fold open and closed (buttons, so the
 * keyboard reaches them), with long ones shown a page at a time; or the raw JSON; and a copy button.
 */
export const JsonView = ({ value, label }: { value: unknown; label: string }) => {
  const [raw, setRaw] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = value === undefined ? '' : JSON.stringify(value, null, 2);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section class="json-view" aria-label={label}>
      <div class="json-tools">
        <button type="button" class="small" aria-pressed={!raw} onClick={() => setRaw(false)}>
          Tree
        </button>
        <button type="button" class="small" aria-pressed={raw} onClick={() => setRaw(true)}>
          Raw JSON
        </button>
        <button type="button" class="small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy JSON'}
        </button>
      </div>
      {raw ? (
        <pre class="json" data-label={label}>
          {text}
        </pre>
      ) : (
        <ul class="json-tree" data-label={label}>
          <Node name={null} value={value} depth={0} />
        </ul>
      )}
    </section>
  );
};
