import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from './api';
import type { Timestamp } from './types';

/**
 * Loads data on mount and when `deps` change; `reload` fetches again. Only the answer to the
 * latest request is shown, and a reload always asks with the latest `load`: a reload from an
 * older render (an action that finished after a filter changed) must not bring back old results.
 */
export const useLoad = <T,>(load: () => Promise<T>, deps: unknown[]) => {
  const [state, setState] = useState<{ data: T | null; error: FieldErrors | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const latestRequest = useRef(0);
  const reload = useCallback(() => {
    const request = ++latestRequest.current;
    setState((s) => ({ ...s, loading: true }));
    latestLoad.current().then(
      (data) => request === latestRequest.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        request === latestRequest.current && setState({ data: null, error: errorsOf(error), loading: false }),
    );
  }, []);
  useEffect(() => {
    reload();
    return () => {
      latestRequest.current++;
    };
  }, deps);
  return {
    ...state,
    reload,
    setData: (data: T) => setState({ data, error: null, loading: false }),
    /** Changes the data as it is when the change lands, not as an older render saw it. */
    update: (change: (data: T) => T) => setState((s) => (s.data === null ? s : { ...s, data: change(s.data) })),
  };
};

/** Runs a form's action, keeping its field errors and a busy flag. */
export const useAction = () => {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setErrors({});
    try {
      return await action();
    } catch (error) {
      setErrors(errorsOf(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { errors, busy, run, setErrors };
};

/** Deletes a record once the user confirms `question`, then reloads; a refusal's errors are kept to show. */
export const useRemoval = (reload: () => void) => {
  const [errors, setErrors] = useState<FieldErrors>({});
  const remove = (question: string, path: string) => {
    if (!confirm(question)) return;
    setErrors({});
    api.delete(path).then(reload, (e: unknown) => setErrors(errorsOf(e)));
  };
  return { errors, remove };
};

let nextId = 0;
export const useId = (prefix = 'f') => useState(() => `${prefix}-${++nextId}`)[0];

export const FieldError = ({ id, messages }: { id?: string; messages: string[] | undefined }) =>
  messages?.length ? (
    <p class="field-error" id={id} role="alert">
      {messages.join(' ')}
    </p>
  ) : null;

/** Errors that belong to no field of the form (`general`, or fields the form does not show). */
export const FormErrors = ({ errors, fields = [] }: { errors: FieldErrors; fields?: string[] }) => {
  const rest = Object.entries(errors).filter(([key]) => !fields.includes(key));
  if (!rest.length) return null;
  return (
    <div class="alert alert-error" role="alert">
      {rest.map(([key, messages]) => (
        <p key={key}>
          {key === 'general' ? '' : `${key}: `}
          {messages.join(' ')}
        </p>
      ))}
    </div>
  );
};

interface InputFieldProps
  extends Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label' | 'name'> {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  errors?: FieldErrors;
  hint?: string;
}

export const InputField = ({ label, name, value, onValue, errors, hint, ...rest }: InputFieldProps) => {
  const id = useId(name);
  const messages = errors?.[name];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={messages?.length ? true : undefined}
        aria-describedby={messages?.length ? `${id}-error` : hint ? `${id}-hint` : undefined}
        {...rest}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={messages} />
    </div>
  );
};

/** A labelled checkbox (the label follows the box, and clicking it toggles the box). */
export const CheckboxField = ({
  label,
  checked,
  onValue,
}: {
  label: string;
  checked: boolean;
  onValue: (checked: boolean) => void;
}) => {
  const id = useId('check');
  return (
    <div class="field field-checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onValue(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
};

/** A password being chosen: the server's rule (at least 8 characters) and the browser's hint, in one place. */
export const NewPasswordField = ({
  label = 'Password',
  name = 'password',
  ...rest
}: Omit<InputFieldProps, 'label' | 'name' | 'type'> & { label?: string; name?: string }) => (
  <InputField
    label={label}
    name={name}
    type="password"
    required
    minLength={8}
    autoComplete="new-password"
    hint="At least 8 characters."
    {...rest}
  />
);

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <p class="muted" aria-live="polite">
    {label}
  </p>
);

export const LoadError = ({ errors, retry }: { errors: FieldErrors; retry?: () => void }) => (
  <div class="alert alert-error" role="alert">
    <p>{Object.values(errors).flat().join(' ')}</p>
    {retry && (
      <button type="button" onClick={retry}>
        Try again
      </button>
    )}
  </div>
);

/**
 * A list of records under a header row; unless `actions` is false, a last unlabelled column holds
 * each row's buttons. A table wider than the screen scrolls inside its own region, which takes the
 * focus so that the keyboard scrolls it too.
 */
export const Table = ({
  columns,
  actions = true,
  children,
}: {
  columns: readonly string[];
  actions?: boolean;
  children: ComponentChildren;
}) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
  <section class="table-scroll" aria-label="Scrollable table" tabIndex={0}>
    <table class="table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </section>
);

/** What `useLoad` is doing, when it is not done: loading, or failed with a way to try again. */
export const LoadStatus = ({
  of,
}: {
  of: { readonly loading: boolean; readonly error: FieldErrors | null; readonly reload: () => void };
}) => (
  <>
    {of.loading && <Loading />}
    {of.error && <LoadError errors={of.error} retry={of.reload} />}
  </>
);

export const Empty = ({ children }: { children: ComponentChildren }) => <div class="empty">{children}</div>;

export const Pagination = ({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number | null;
  onPage: (page: number) => void;
}) =>
  totalPages && totalPages > 1 ? (
    <nav class="pagination" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  ) : null;

export const Badge = ({ status }: { status: string }) => <span class={`badge badge-${status}`}>{status}</span>;

export const formatDate = (moment: Timestamp | null) => (moment === null ? '–' : new Date(moment).toLocaleString());

export const Json = ({ value, label }: { value: unknown; label: string }) => (
  <pre class="json" data-label={label}>
    {value === undefined ? '' : JSON.stringify(value, null, 2)}
  </pre>
);

export const Page = ({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) => {
  useEffect(() => {
    document.title = `${title} · Conveyor`;
  }, [title]);
  return (
    <section class="page">
      <header class="page-header">
        <h1>{title}</h1>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
};

/** The message of an execution step's error, when it has one, in words before the details. */
export const ErrorMessage = ({ details }: { details: unknown }) => {
  const message =
    details && typeof details === 'object' && 'message' in details
      ? String((details as { message: unknown }).message)
      : null;
  return message ? <p class="error-message">{message}</p> : null;
};

/** A page's sections, each at its own address: links with the current one marked. */
export const Tabs = <Name extends string>({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: readonly { name: Name; href: string; label: string }[];
  current: Name;
}) => (
  <nav class="tabs" aria-label={label}>
    {tabs.map((tab) => (
      <a key={tab.name} href={tab.href} aria-current={tab.name === current ? 'page' : undefined}>
        {tab.label}
      </a>
    ))}
  </nav>
);
