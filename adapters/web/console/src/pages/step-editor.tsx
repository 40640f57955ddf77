import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../api';
import { AppPicker, ChosenApp } from '../app-picker';
import type { App, Argument, Step, StepDefinition } from '../types';
import { Badge, FieldError, FormErrors, useId, useLoad } from '../ui';
import { ArgumentField } from './argument-field';
import { ConnectionPicker } from './connection-picker';
import { type DraftWrite, isDraftConflict } from './draft';
import { publicFormUrl } from './forms';
import { StepTest } from './step-test';
import { structuralTypeOf } from './step-tree';
import { markUnsaved } from './unsaved-steps';
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

/** The triggers (for a trigger) or actions of an app. */
const eventsOf = (appKey: string, type: Step['type']) =>
  api.get<StepDefinition[]>(`/apps/${appKey}/${type === 'trigger' ? 'triggers' : 'actions'}`).then((r) => r.data);

const definitionsOf = (step: Step) =>
  step.appKey ? eventsOf(step.appKey, step.type) : Promise.resolve([] as StepDefinition[]);

/** What choosing an event sets: the event, its arguments' defaults, and its name as the step's. */
const eventChoice = (chosen: StepDefinition | undefined) => ({
  key: chosen?.key ?? null,
  parameters: Object.fromEntries(
    (chosen?.arguments ?? []).filter((a) => a.defaultValue !== undefined).map((a) => [a.key, a.defaultValue]),
  ),
  name: chosen?.name ?? null,
});

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
  const [dirty, setDirty] = useState(false);
  const [changingApp, setChangingApp] = useState(false);
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
  useEffect(() => {
    markUnsaved(step.id, dirty);
    return () => markUnsaved(step.id, false);
  }, [step.id, dirty]);

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
  const chooseApp = (appKey: string) => {
    setChangingApp(false);
    // The same app again keeps the step as it is: a new app starts its event and settings afresh.
    if (appKey === step.appKey) return;
    void act('app', async () => {
      // An app with one trigger (or action) has nothing to choose: that one comes with it, in one change.
      const events = await eventsOf(appKey, step.type);
      const only = events.length === 1 ? eventChoice(events[0]) : { key: null, parameters: {} };
      await patch({ appKey, connectionId: null, ...only });
    });
  };
  const chooseEvent = (key: string) => {
    // The same event again keeps the step's settings.
    if ((key || null) === step.key) return;
    void act('event', async () => {
      await patch({
        appKey: step.appKey,
        connectionId,
        ...eventChoice(definitions.data?.find((d) => d.key === key)),
      });
    });
  };
  const save = () =>
    act('save', async () => {
      await patch({ appKey: step.appKey, key: step.key, connectionId, parameters });
      setDirty(false);
    });
  /** A test runs the step as stored: unsaved edits are saved first. */
  const saveBeforeTest = async () => {
    if (!dirty) return;
    await patch({ appKey: step.appKey, key: step.key, connectionId, parameters });
    setDirty(false);
  };
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

  const choosable = useMemo(
    () =>
      apps.filter(
        (a) => !STRUCTURAL_APPS.has(a.key) && (step.type === 'trigger' ? a.triggerCount > 0 : a.actionCount > 0),
      ),
    [apps, step.type],
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
      {single && (!app || changingApp) && (
        <fieldset class="field app-choice" disabled={busy !== null}>
          <legend>{step.type === 'trigger' ? 'The app that starts the flow' : 'The app this step uses'}</legend>
          <AppPicker
            apps={choosable}
            label={step.type === 'trigger' ? 'Apps with triggers' : 'Apps with actions'}
            choose={{ pick: (chosen) => chooseApp(chosen.key) }}
            current={step.appKey}
            onCancel={app ? () => setChangingApp(false) : undefined}
            autoFocus={changingApp}
            remember={step.type === 'trigger' ? 'triggers' : 'actions'}
          />
          {app && (
            <button type="button" onClick={() => setChangingApp(false)}>
              Keep {app.name}
            </button>
          )}
          <FieldError messages={errors.appKey} />
        </fieldset>
      )}
      {single && app && !changingApp && (
        <div class="grid-2">
          <div class="field">
            <span class="field-label">App</span>
            <ChosenApp
              app={app}
              change={{ label: 'Change app', onClick: () => setChangingApp(true) }}
              disabled={busy !== null}
              newTab
            />
            <FieldError messages={errors.appKey} />
          </div>
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
        <StepTest
          key={`${step.appKey}:${step.key}`}
          step={step}
          definition={definition}
          busy={busy !== null}
          beforeTest={saveBeforeTest}
          onTested={onSaved}
        />
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
