import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../api';
import type { App, Argument, ExecutionStep, Step, StepDefinition } from '../types';
import { Badge, ErrorMessage, FieldError, FormErrors, Json, useId, useLoad } from '../ui';
import { ArgumentField } from './argument-field';
import { ConnectionPicker } from './connection-picker';
import { type DraftWrite, isDraftConflict } from './draft';
import { publicFormUrl } from './forms';
import { structuralTypeOf } from './step-tree';
import type { ChoiceGroup } from './variables';

/** What "add" puts after a step: an empty step, a paths step with two branches, or a loop. */
export type NewStepKind = 'single' | 'paths' | 'loop';

/** The built-in apps that paths, branch and loop steps are: added as such, never chosen for a step. */
const STRUCTURAL_APPS = new Set(['branches', 'loop']);

const TITLES = { paths: 'Paths', loop: 'Loop over items', branch: 'Branch' } as const;

interface StepEditorProps {
  readonly step: Step;
  readonly apps: App[];
  /** What its variable pickers offer. */
  readonly variables: readonly ChoiceGroup[];
  readonly publishErrors: string[] | undefined;
  /** Changes of the step are changes of the flow's draft, sent with its revision. */
  readonly write: DraftWrite;
  readonly onSaved: (step: Step) => void;
  readonly onDeleted: () => void;
  readonly onAdd: (kind: NewStepKind) => void;
  /** How many steps are inside it (paths, loop): they go with it. */
  readonly inside: number;
  /** Its move buttons and menu. */
  readonly moves?: preact.ComponentChildren;
  /** A paths step's branches, a loop's steps. */
  readonly children?: preact.ComponentChildren;
}

const definitionsOf = (step: Step) =>
  step.appKey
    ? api
        .get<StepDefinition[]>(`/apps/${step.appKey}/${step.type === 'trigger' ? 'triggers' : 'actions'}`)
        .then((r) => r.data)
    : Promise.resolve([] as StepDefinition[]);

/** Errors of one argument, as the server names them (`parameters.<key>` or the bare key). */
const errorsFor = (errors: FieldErrors, key: string) => errors[`parameters.${key}`] ?? errors[key];

export const StepEditor = ({
  step,
  apps,
  variables,
  publishErrors,
  write,
  onSaved,
  onDeleted,
  onAdd,
  inside,
  moves,
  children,
}: StepEditorProps) => {
  const [parameters, setParameters] = useState<Record<string, unknown>>(step.parameters);
  const [connectionId, setConnectionId] = useState<string | null>(step.connectionId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [tested, setTested] = useState<ExecutionStep | null>(step.lastExecutionStep ?? null);
  const [dirty, setDirty] = useState(false);
  const appId = useId('app');
  const eventId = useId('event');
  const headingId = useId('step');
  const app = apps.find((a) => a.key === step.appKey) ?? null;
  const definitions = useLoad(() => definitionsOf(step), [step.appKey, step.type]);
  const definition = definitions.data?.find((d) => d.key === step.key) ?? null;

  useEffect(() => {
    setParameters(step.parameters);
    setConnectionId(step.connectionId);
    setDirty(false);
  }, [step]);

  // Dynamic fields depend on the choices made (dropdowns, switches), not on what is typed.
  const choices = JSON.stringify(Object.entries(parameters).filter(([, v]) => typeof v !== 'string' || v.length < 40));
  const [extraFields, setExtraFields] = useState<Argument[]>([]);
  useEffect(() => {
    if (!definition?.dynamicFieldsKey) return setExtraFields([]);
    api
      .post<Argument[]>(`/steps/${step.id}/dynamic-fields`, {
        dynamicFieldsKey: definition.dynamicFieldsKey,
        parameters,
      })
      .then(
        (r) => setExtraFields(r.data),
        () => setExtraFields([]),
      );
  }, [definition?.dynamicFieldsKey, step.id, choices]);
  const fields = useMemo(() => {
    const base = definition?.arguments ?? [];
    return [...base, ...extraFields.filter((extra) => !base.some((b) => b.key === extra.key))];
  }, [definition, extraFields]);

  const act = async (name: string, action: () => Promise<void>) => {
    setBusy(name);
    setErrors({});
    try {
      await action();
    } catch (error) {
      // A stale revision is the editor's to say, once, with the way out (reload).
      if (!isDraftConflict(error)) setErrors(errorsOf(error));
    } finally {
      setBusy(null);
    }
  };
  const patch = async (body: Record<string, unknown>) => {
    const saved = await write<Step>('PATCH', `/steps/${step.id}`, body);
    onSaved(saved.data);
    return saved.data;
  };
  const chooseApp = (appKey: string) =>
    act('app', async () => {
      setTested(null);
      await patch({ appKey: appKey || null, key: null, connectionId: null, parameters: {} });
    });
  const chooseEvent = (key: string) =>
    act('event', async () => {
      setTested(null);
      const chosen = definitions.data?.find((d) => d.key === key);
      const defaults = Object.fromEntries(
        (chosen?.arguments ?? []).filter((a) => a.defaultValue !== undefined).map((a) => [a.key, a.defaultValue]),
      );
      await patch({
        appKey: step.appKey,
        key: key || null,
        connectionId,
        parameters: defaults,
        name: chosen?.name ?? null,
      });
    });
  const save = () =>
    act('save', async () => {
      await patch({ appKey: step.appKey, key: step.key, connectionId, parameters });
      setDirty(false);
    });
  const test = () =>
    act('test', async () => {
      if (dirty) await patch({ appKey: step.appKey, key: step.key, connectionId, parameters });
      setDirty(false);
      const answer = await api.post<Step>(`/steps/${step.id}/test`);
      setTested(answer.data.lastExecutionStep ?? null);
      onSaved(answer.data);
    });
  const remove = () => {
    const question =
      inside > 0
        ? `Delete this ${structural === 'paths' ? 'paths step, its branches' : 'loop'} and the ${inside} step${inside === 1 ? '' : 's'} inside it?`
        : 'Delete this step?';
    if (!confirm(question)) return;
    void act('delete', async () => {
      await write('DELETE', `/steps/${step.id}`);
      onDeleted();
    });
  };

  const choosable = apps.filter(
    (a) => !STRUCTURAL_APPS.has(a.key) && (step.type === 'trigger' ? a.triggerCount > 0 : a.actionCount > 0),
  );
  const structural = structuralTypeOf(step);
  const single = structural === 'single';
  const title = single ? (step.type === 'trigger' ? 'Trigger' : 'Action') : TITLES[structural];
  return (
    <article
      class={`step-card step-${step.status} step-${structural}`}
      aria-labelledby={headingId}
      data-step-id={step.id}
    >
      <header class="step-header">
        <h2 id={headingId}>
          {step.position}. {title}
          {single && definition ? `: ${app?.name ?? step.appKey} · ${definition.name}` : ''}
          {!single && step.name && step.name !== definition?.name ? `: ${step.name}` : ''}
        </h2>
        <Badge status={step.status} />
      </header>
      <FieldError messages={publishErrors} />
      <FormErrors
        errors={errors}
        fields={['appKey', 'key', 'connectionId', ...fields.flatMap((f) => [f.key, `parameters.${f.key}`])]}
      />
      {single && (
        <div class="grid-2">
          <div class="field">
            <label for={appId}>App</label>
            <select
              id={appId}
              value={step.appKey ?? ''}
              onChange={(e) => chooseApp(e.currentTarget.value)}
              disabled={busy !== null}
            >
              <option value="">Choose an app…</option>
              {choosable.map((a) => (
                <option key={a.key} value={a.key}>
                  {a.name}
                </option>
              ))}
            </select>
            <FieldError messages={errors.appKey} />
          </div>
          {step.appKey && (
            <div class="field">
              <label for={eventId}>{step.type === 'trigger' ? 'Trigger event' : 'Action event'}</label>
              <select
                id={eventId}
                value={step.key ?? ''}
                onChange={(e) => chooseEvent(e.currentTarget.value)}
                disabled={busy !== null}
              >
                <option value="">{definitions.loading ? 'Loading…' : 'Choose an event…'}</option>
                {definitions.data?.map((d) => (
                  <option key={d.key} value={d.key}>
                    {d.name}
                  </option>
                ))}
              </select>
              {definition && <p class="hint">{definition.description}</p>}
              <FieldError messages={errors.key} />
            </div>
          )}
        </div>
      )}
      {app?.supportsConnections && definition && (
        <ConnectionPicker
          app={app}
          value={connectionId}
          errors={errors.connectionId}
          onValue={(id) => {
            // Saved at once: dynamic options and tests use the step's stored connection.
            setConnectionId(id);
            void act('connection', async () => {
              await patch({ appKey: step.appKey, key: step.key, connectionId: id, parameters });
            });
          }}
        />
      )}
      {step.webhookUrl && (
        <div class="webhook-url">
          <p>
            <strong>Webhook address.</strong> Send a request here to start the flow: a published flow runs its live
            version; while it is unpublished, requests are kept as sample data for testing.
          </p>
          <div class="inline">
            <code data-testid="webhook-url">{step.webhookUrl}</code>
            <button
              type="button"
              class="small"
              onClick={() => void navigator.clipboard?.writeText(step.webhookUrl ?? '')}
            >
              Copy
            </button>
          </div>
          {parameters.workSynchronously === true && (
            <p class="hint">
              Callers that wait for the flow's answer (a “Respond with” step) use <code>{step.webhookUrl}/sync</code>.
            </p>
          )}
        </div>
      )}
      {step.appKey === 'forms' && step.type === 'trigger' && typeof step.parameters.formId === 'string' && (
        <div class="webhook-url">
          <p>
            <strong>Form page.</strong> Answers given here start the flow: a published flow runs its live version; while
            it is unpublished, they are kept as sample data for testing.
          </p>
          <a data-testid="form-page-url" href={publicFormUrl(step.parameters.formId)} target="_blank" rel="noreferrer">
            {publicFormUrl(step.parameters.formId)}
          </a>
        </div>
      )}
      {definition && fields.length > 0 && (
        <form
          class="arguments"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          aria-label={`Settings of step ${step.position}`}
        >
          {fields.map((argument) => (
            <ArgumentField
              key={argument.key}
              argument={argument}
              value={parameters[argument.key]}
              onValue={(value) => {
                setParameters((current) => ({ ...current, [argument.key]: value }));
                setDirty(true);
              }}
              errors={errorsFor(errors, argument.key)}
              step={step}
              parameters={parameters}
              variables={variables}
            />
          ))}
          <button type="submit" disabled={busy !== null || !dirty}>
            {busy === 'save' ? 'Saving…' : dirty ? 'Save' : 'Saved'}
          </button>
        </form>
      )}
      {children}
      {single && definition && (
        <div class="step-test">
          <button type="button" class="primary" onClick={() => void test()} disabled={busy !== null}>
            {busy === 'test' ? 'Testing…' : 'Test step'}
          </button>
          {tested && (
            <div class={`test-result test-${tested.status}`} role="status" aria-live="polite">
              <p>
                <strong>{tested.status === 'success' ? 'Test succeeded.' : 'Test failed.'}</strong>{' '}
                {tested.status === 'success' ? 'Output:' : 'Error:'}
              </p>
              {tested.status === 'failure' && <ErrorMessage details={tested.errorDetails} />}
              <Json
                label={tested.status === 'success' ? 'Test output' : 'Test error'}
                value={tested.status === 'success' ? tested.dataOut : tested.errorDetails}
              />
            </div>
          )}
        </div>
      )}
      <footer class="step-footer">
        <button type="button" onClick={() => onAdd('single')} disabled={busy !== null}>
          Add a step below
        </button>
        <button type="button" onClick={() => onAdd('paths')} disabled={busy !== null}>
          Add paths below
        </button>
        <button type="button" onClick={() => onAdd('loop')} disabled={busy !== null}>
          Add a loop below
        </button>
        {moves}
        {step.type === 'action' && (
          <button type="button" class="danger" onClick={remove} disabled={busy !== null}>
            Delete step
          </button>
        )}
      </footer>
    </article>
  );
};
