import { api } from '../api';
import type { App, AppCapability, Connection, Flow, StepDefinition } from '../types';
import { FieldError, useId, useLoad } from '../ui';

/** The built-in apps that are no tools: structure, and the AI apps themselves. */
const NOT_TOOLS = new Set(['branches', 'loop', 'agents', 'mcp']);

/** Every app, loaded once per page that picks among them. */
export const useApps = () => useLoad(() => api.get<App[]>('/apps').then((r) => r.data), []);

export const hasCapability = (app: App, capability: AppCapability) => app.capabilities?.includes(capability) ?? false;

/** Apps whose actions can be tools (of an agent, of an MCP server). */
export const toolApps = (apps: readonly App[]) =>
  apps.filter((app) => app.actionCount > 0 && !NOT_TOOLS.has(app.key) && !hasCapability(app, 'toolbox'));

/** The name of a connection as lists show it. */
export const connectionName = (connection: Connection) =>
  `${connection.formattedData.screenName ?? connection.id}${connection.verified ? '' : ' (not verified)'}`;

/** A labelled select of apps. */
export const AppSelect = ({
  label,
  apps,
  value,
  onValue,
  errors,
}: {
  label: string;
  apps: readonly App[];
  value: string;
  onValue: (appKey: string) => void;
  errors?: string[];
}) => {
  const id = useId('app');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
        <option value="">Choose an app…</option>
        {apps.map((app) => (
          <option key={app.key} value={app.key}>
            {app.name}
          </option>
        ))}
      </select>
      <FieldError messages={errors} />
    </div>
  );
};

/** The app's actions, to pick the ones that become tools. */
export const useActions = (appKey: string) =>
  useLoad(
    () =>
      appKey
        ? api.get<StepDefinition[]>(`/apps/${appKey}/actions`).then((r) => r.data)
        : Promise.resolve([] as StepDefinition[]),
    [appKey],
  );

/** Checkboxes over a list of choices (actions, tools), in a fieldset. */
export const Checklist = ({
  legend,
  choices,
  chosen,
  onChosen,
  errors,
  hint,
}: {
  legend: string;
  choices: readonly { value: string; label: string; description?: string }[];
  chosen: readonly string[];
  onChosen: (chosen: string[]) => void;
  errors?: string[];
  hint?: string;
}) => {
  const id = useId('choice');
  return (
    <fieldset class="checklist">
      <legend>{legend}</legend>
      {hint && <p class="hint">{hint}</p>}
      {choices.map((choice, at) => (
        <div class="field field-checkbox" key={choice.value}>
          <input
            id={`${id}-${at}`}
            type="checkbox"
            checked={chosen.includes(choice.value)}
            onChange={(e) =>
              onChosen(
                e.currentTarget.checked ? [...chosen, choice.value] : chosen.filter((value) => value !== choice.value),
              )
            }
          />
          <label for={`${id}-${at}`}>
            {choice.label}
            {choice.description && <span class="muted"> — {choice.description}</span>}
          </label>
        </div>
      ))}
      <FieldError messages={errors} />
    </fieldset>
  );
};

/** The trigger a flow starts with, as `<appKey>.<key>`. */
const triggerOf = (flow: Flow) => {
  const trigger = flow.steps.find((step) => step.type === 'trigger');
  return trigger ? `${trigger.appKey}.${trigger.key}` : '';
};

/**
 * The flows that can be tools: those whose trigger is one of `triggers` (`<appKey>.<key>`, such as
 * `mcp.mcpTool`), read from the flows that use the triggers' apps.
 */
export const useToolFlows = (triggers: readonly string[]) =>
  useLoad(async () => {
    const appKeys = [...new Set(triggers.map((trigger) => trigger.split('.')[0]))];
    const pages = await Promise.all(appKeys.map((appKey) => api.get<Flow[]>(`/apps/${appKey}/flows?perPage=100`)));
    const flows = new Map<string, Flow>();
    for (const flow of pages.flatMap((page) => page.data)) {
      if (triggers.includes(triggerOf(flow))) flows.set(flow.id, flow);
    }
    return [...flows.values()];
  }, [triggers.join()]);

/** A labelled select of flows. */
export const FlowSelect = ({
  flows,
  value,
  onValue,
  errors,
  hint,
}: {
  flows: readonly Flow[];
  value: string;
  onValue: (flowId: string) => void;
  errors?: string[];
  hint: string;
}) => {
  const id = useId('flow');
  return (
    <div class="field">
      <label for={id}>Flow</label>
      <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
        <option value="">{flows.length ? 'Choose a flow…' : 'No such flow yet'}</option>
        {flows.map((flow) => (
          <option key={flow.id} value={flow.id}>
            {flow.name}
            {flow.active ? '' : ' (not published)'}
          </option>
        ))}
      </select>
      <p class="hint">{hint}</p>
      <FieldError messages={errors} />
    </div>
  );
};

/** What kind of tool is added: a labelled select of the kinds offered. */
export const KindSelect = <Kind extends string>({
  kinds,
  value,
  onValue,
}: {
  kinds: readonly { value: Kind; label: string }[];
  value: Kind;
  onValue: (kind: Kind) => void;
}) => {
  const id = useId('tool-kind');
  return (
    <div class="field">
      <label for={id}>Kind</label>
      <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value as Kind)}>
        {kinds.map((kind) => (
          <option key={kind.value} value={kind.value}>
            {kind.label}
          </option>
        ))}
      </select>
    </div>
  );
};
