import { useState } from 'preact/hooks';
import { ApiError, api, errorsOf, type FieldErrors } from '../api';
import type { App, Flow, Step } from '../types';
import { Badge, FormErrors, LoadError, Loading, Page, useId, useLoad } from '../ui';
import { StepEditor } from './step-editor';

/** Latest sample output of every step but the last, from the last step's previous steps. */
const loadSamples = async (flow: Flow) => {
  const last = flow.steps[flow.steps.length - 1];
  if (!last || flow.steps.length < 2) return new Map<string, Step>();
  const previous = await api.get<Step[]>(`/steps/${last.id}/previous-steps`);
  return new Map(previous.data.map((s) => [s.id, s]));
};

/**
 * Where a publish refusal belongs: messages keyed by a step go to that step; the server's
 * IncompleteStepsError names no step, so each incomplete step says what it still needs.
 */
const publishErrorsFor = (errors: FieldErrors, refusal: string | null, step: Step) =>
  errors[step.id] ??
  errors[`steps.${step.id}`] ??
  (refusal === 'IncompleteStepsError' && step.status === 'incomplete'
    ? [
        step.appKey && step.key
          ? 'This step is not complete: fill in its required settings (and its connection), save, then test it.'
          : `This step is not complete: choose an app and ${step.type === 'trigger' ? 'a trigger' : 'an action'}.`,
      ]
    : undefined);

export const FlowEditor = ({ flowId }: { flowId: string }) => {
  const flow = useLoad(() => api.get<Flow>(`/flows/${flowId}`).then((r) => r.data), [flowId]);
  const apps = useLoad(() => api.get<App[]>('/apps').then((r) => r.data), []);
  const samples = useLoad(
    () => (flow.data ? loadSamples(flow.data) : Promise.resolve(new Map<string, Step>())),
    [flow.data?.steps.map((s) => `${s.id}:${s.updatedAt}:${s.lastExecutionStep?.id ?? ''}`).join(',')],
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState('');
  const nameId = useId('flow-name');

  if (flow.error) return <LoadError errors={flow.error} retry={flow.reload} />;
  if (!flow.data || !apps.data) return <Loading label="Loading the flow…" />;
  const current = flow.data;
  // A refusal for incomplete steps is answered once every step is complete: it no longer stands.
  const refusalStands = refusal !== 'IncompleteStepsError' || current.steps.some((s) => s.status === 'incomplete');

  const act = async (action: () => Promise<void>) => {
    setErrors({});
    setRefusal(null);
    try {
      await action();
    } catch (error) {
      setErrors(errorsOf(error));
      setRefusal(error instanceof ApiError ? error.type : null);
    }
  };
  const setStatus = (active: boolean) =>
    act(async () => {
      const answer = await api.patch<Flow>(`/flows/${current.id}/status`, { active });
      flow.setData({ ...current, ...answer.data, steps: answer.data.steps ?? current.steps });
    });
  const rename = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const answer = await api.patch<Flow>(`/flows/${current.id}`, { name });
      flow.setData({ ...current, name: answer.data.name });
      setRenaming(false);
    });
  };
  const addAfter = (step: Step) =>
    act(async () => {
      await api.post<Step>(`/flows/${current.id}/steps`, { previousStepId: step.id });
      flow.reload();
    });
  const replaceStep = (saved: Step) =>
    flow.setData({ ...current, steps: current.steps.map((s) => (s.id === saved.id ? { ...s, ...saved } : s)) });

  const sampleOf = (step: Step) => samples.data?.get(step.id) ?? step;
  return (
    <Page
      title={current.name}
      actions={
        <>
          <Badge status={current.status} />
          <a class="button" href={`/executions?flowId=${current.id}`}>
            Executions
          </a>
          <button
            type="button"
            onClick={() => {
              setName(current.name);
              setRenaming(true);
            }}
          >
            Rename
          </button>
          {current.active ? (
            <button type="button" onClick={() => void setStatus(false)}>
              Unpublish
            </button>
          ) : (
            <button type="button" class="primary" onClick={() => void setStatus(true)}>
              Publish
            </button>
          )}
        </>
      }
    >
      <p>
        <a href="/flows">← All flows</a>
      </p>
      {renaming && (
        <form class="inline" onSubmit={rename}>
          <label for={nameId}>Flow name</label>
          <input id={nameId} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
          <button type="submit" class="primary">
            Save name
          </button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      )}
      <FormErrors errors={refusalStands ? errors : {}} fields={current.steps.flatMap((s) => [s.id, `steps.${s.id}`])} />
      <ol class="steps">
        {current.steps.map((step, index) => (
          <li key={step.id}>
            <StepEditor
              step={step}
              apps={apps.data ?? []}
              previousSteps={current.steps.slice(0, index).map(sampleOf)}
              publishErrors={publishErrorsFor(errors, refusal, step)}
              onSaved={replaceStep}
              onDeleted={flow.reload}
              onAddAfter={() => void addAfter(step)}
            />
          </li>
        ))}
      </ol>
    </Page>
  );
};
