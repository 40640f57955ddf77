import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiError, api, errorsOf, type FieldErrors } from '../api';
import { showToast, statusToast } from '../toast';
import type { App, Flow, FlowVersion, FlowVersionDetail, Step } from '../types';
import { Badge, FormErrors, LoadError, Loading, Page, useId, useLoad } from '../ui';
import { FlowCanvas } from './canvas/flow-canvas';
import { StepPanel } from './canvas/step-panel';
import { isDraftConflict, revisionOf, useDraft } from './draft';
import { DraftBanner } from './draft-banner';
import { FirstFlowGuide, PUBLISH_BUTTON_ID } from './first-flow-guide';
import { FlowHistory } from './flow-history';
import type { AddBody, TreeContext } from './flow-tree';
import { ListenerStatus } from './listener-status';
import { type Place, sampleAskers, stepLabel } from './step-tree';
import { mayLeaveStep, useUnsavedStepsGuard } from './unsaved-steps';

/**
 * Latest sample output of every step another may read, from the previous steps of the last step
 * of each list (the top level, each branch, each loop): between them they name every such step.
 */
const loadSamples = async (flow: Flow) => {
  if (flow.steps.length < 2) return new Map<string, Step>();
  const answers = await Promise.all(
    sampleAskers(flow.steps).map((asker) => api.get<Step[]>(`/steps/${asker.id}/previous-steps`)),
  );
  return new Map(answers.flatMap((answer) => answer.data.map((s) => [s.id, s] as const)));
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
        (step.structuralType ?? 'single') !== 'single'
          ? 'This step is not complete: fill in its required settings and save.'
          : step.appKey && step.key
            ? 'This step is not complete: fill in its required settings (and its connection), save, then test it.'
            : `This step is not complete: choose an app and ${step.type === 'trigger' ? 'a trigger' : 'an action'}.`,
      ]
    : undefined);

/** What a change of the draft may change of the flow beside its steps (and name). */
const stateOf = ({ active, status, publishedAt, publishedVersion, hasDraftChanges, listener }: Flow) => ({
  listener,
  active,
  status,
  publishedAt,
  publishedVersion,
  hasDraftChanges,
});

/** Said at the top of the editor, and kept in view, when a change was based on an older draft. */
const ConflictNotice = ({ onReload }: { onReload: () => void }) => (
  <div class="alert alert-error conflict" role="alert">
    <p>
      <strong>This flow was changed somewhere else</strong> (another tab, or another person) since you loaded it, so
      your last change was not saved.
    </p>
    <p>Reload the flow to see it as it is now, then make your change again. Unsaved edits on this page are replaced.</p>
    <button type="button" class="primary" onClick={onReload}>
      Reload the flow
    </button>
  </div>
);

/** The step open in the side panel, kept in the address (`?step=<id>`) so that a reload keeps it. */
const useSelectedStep = () => {
  const location = useLocation();
  const selectedId = location.query.step ?? null;
  const select = (id: string | null) =>
    location.route(id ? `${location.path}?step=${encodeURIComponent(id)}` : location.path, true);
  return [selectedId, select] as const;
};

/** Gives the keyboard's focus back to a step's node on the canvas (after its panel closes). */
const focusNode = (id: string) =>
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>(`.canvas-node[data-step-id="${CSS.escape(id)}"] button`)?.focus(),
  );

export const FlowEditor = ({ flowId }: { flowId: string }) => {
  const [selectedId, selectStep] = useSelectedStep();
  useUnsavedStepsGuard();
  // After a change that answers no flow (a step's), ask whether the draft now differs from what runs.
  const stateRequest = useRef(0);
  const refreshState = () => {
    const asked = ++stateRequest.current;
    api.get<Flow>(`/flows/${flowId}`).then(
      // Not its revision: the view has not taken in whatever else changed since.
      (r) =>
        asked === stateRequest.current && flow.update((f) => (f.id === r.data.id ? { ...f, ...stateOf(r.data) } : f)),
      () => undefined,
    );
  };
  const draft = useDraft(flowId, refreshState);
  /** Another step chosen (or none): unless the open one's unsaved edits are kept by the user's answer. */
  const select = (id: string | null) => {
    const open = flow.data?.steps.find((s) => s.id === selectedId);
    if (id === selectedId || (open && !mayLeaveStep(open.id, stepLabel(open)))) return false;
    selectStep(id);
    return true;
  };
  const flow = useLoad(
    () =>
      api.get<Flow>(`/flows/${flowId}`).then((r) => {
        draft.adopt(revisionOf(r.etag) ?? r.data.draftRevision);
        return r.data;
      }),
    [flowId],
  );
  const apps = useLoad(() => api.get<App[]>('/apps').then((r) => r.data), []);
  const samples = useLoad(
    () => (flow.data ? loadSamples(flow.data) : Promise.resolve(new Map<string, Step>())),
    [flow.data?.steps.map((s) => `${s.id}:${s.updatedAt}:${s.lastExecutionStep?.id ?? ''}`).join(',')],
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState('');
  const [historyOpen, setHistoryOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const nameId = useId('flow-name');

  if (flow.error) return <LoadError errors={flow.error} retry={flow.reload} />;
  if (!flow.data || !apps.data) return <Loading label="Loading the flow…" />;
  const current = flow.data;
  // A refusal for incomplete steps is answered once every step is complete: it no longer stands.
  const refusalStands = refusal !== 'IncompleteStepsError' || current.steps.some((s) => s.status === 'incomplete');

  const act = async (action: () => Promise<void>): Promise<boolean> => {
    setErrors({});
    setRefusal(null);
    setBusy(true);
    try {
      await action();
      return true;
    } catch (error) {
      // A stale revision is said once, above everything, with the way out.
      if (!isDraftConflict(error)) {
        setErrors(errorsOf(error));
        setRefusal(error instanceof ApiError ? error.type : null);
      }
      return false;
    } finally {
      setBusy(false);
    }
  };
  // The steps on the page stay as they are (with any unsaved edits): a status change does not touch them.
  const setStatus = (active: boolean) =>
    act(async () => {
      const answer = await draft.write<Flow>('PATCH', `/flows/${current.id}/status`, { active });
      flow.update((f) => ({ ...f, ...stateOf(answer.data) }));
    });
  const publish = (message: string) =>
    act(async () => {
      const answer = await draft.write<FlowVersionDetail>('POST', `/flows/${current.id}/versions`, { message });
      const version = { id: answer.data.id, number: answer.data.number };
      flow.update((f) => ({ ...f, active: true, publishedVersion: version, hasDraftChanges: false }));
    });
  const discard = () =>
    act(async () => {
      const answer = await draft.write<Flow>('DELETE', `/flows/${current.id}/draft`);
      flow.setData(answer.data);
    });
  const restore = (version: FlowVersion) =>
    act(async () => {
      const answer = await draft.write<Flow>('POST', `/flows/${current.id}/versions/${version.id}/restore`);
      flow.setData(answer.data);
      showToast(
        answer.data.hasDraftChanges
          ? `Version ${version.number} is restored as the draft. Publish it to make it live.`
          : `Version ${version.number} is restored as the draft: it is what the flow runs already.`,
      );
    });
  const rename = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const answer = await draft.write<Flow>('PATCH', `/flows/${current.id}`, { name });
      flow.update((f) => ({ ...f, name: answer.data.name, ...stateOf(answer.data) }));
      setRenaming(false);
    });
  };
  // The canvas's changes answer one step; the flow is read again for the places of all the others.
  const add = (body: AddBody) =>
    act(async () => {
      const created = await draft.write<Step>('POST', `/flows/${current.id}/steps`, body);
      select(created.data.id);
      flow.reload();
    });
  const move = (step: Step, place: Place) =>
    act(async () => {
      await draft.write<Step>('POST', `/steps/${step.id}/move`, place);
      flow.reload();
    });
  const replaceStep = (saved: Step) =>
    flow.update((f) => ({ ...f, steps: f.steps.map((s) => (s.id === saved.id ? { ...s, ...saved } : s)) }));
  const reloadFlow = () => {
    draft.reloaded();
    setErrors({});
    flow.reload();
  };
  const live = current.publishedVersion;
  // A published flow whose draft differs offers its publish in the banner, with a message.
  const bannerShown = live !== null && current.hasDraftChanges;

  const sampleOf = (step: Step) => samples.data?.get(step.id) ?? step;
  const tree: TreeContext = {
    steps: current.steps,
    apps: apps.data,
    busy,
    write: draft.write,
    sampleOf,
    publishErrorsFor: (step) => publishErrorsFor(errors, refusal, step),
    onSaved: replaceStep,
    onDeleted: flow.reload,
    add: (body) => void add(body),
    move: (step, place) => void move(step, place),
  };
  const selected = current.steps.find((s) => s.id === selectedId) ?? null;
  const closePanel = () => {
    if (!select(null)) return;
    if (selected) focusNode(selected.id);
  };
  return (
    <Page
      title={current.name}
      actions={
        <>
          <Badge status={current.status} />
          {live && (
            <span class="tag version-tag" title="The version the flow runs when it is published">
              {current.active ? `version ${live.number} live` : `version ${live.number}, unpublished`}
            </span>
          )}
          <a class="button" href={`/executions?flowId=${current.id}`}>
            Executions
          </a>
          <a class="button" href={`/flows/${current.id}/datastore`}>
            Datastore
          </a>
          <button type="button" aria-expanded={historyOpen} onClick={() => setHistoryOpen(!historyOpen)}>
            History
          </button>
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
            <button type="button" disabled={busy} onClick={() => void setStatus(false).then(statusToast(false))}>
              Unpublish
            </button>
          ) : (
            !bannerShown && (
              <button
                type="button"
                id={PUBLISH_BUTTON_ID}
                class="primary"
                disabled={busy}
                onClick={() => void setStatus(true).then(statusToast(true))}
              >
                Publish
              </button>
            )
          )}
        </>
      }
    >
      <p>
        <a href="/flows">← All flows</a>
      </p>
      {draft.conflict && <ConflictNotice onReload={reloadFlow} />}
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
      <ListenerStatus flow={current} />
      <DraftBanner flow={current} busy={busy} onPublish={publish} onDiscard={discard} />
      <FormErrors errors={refusalStands ? errors : {}} fields={current.steps.flatMap((s) => [s.id, `steps.${s.id}`])} />
      {historyOpen && (
        <FlowHistory
          flow={current}
          draftRevision={draft.revision}
          busy={busy}
          onRestore={restore}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      <FirstFlowGuide flow={current} tree={tree} select={select} />
      <div class={`flow-workspace${selected ? ' with-panel' : ''}`}>
        <FlowCanvas tree={tree} selectedId={selected?.id ?? null} select={select} />
        {selected && <StepPanel tree={tree} step={selected} onClose={closePanel} />}
      </div>
    </Page>
  );
};
