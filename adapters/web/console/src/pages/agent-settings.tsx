import { useState } from 'preact/hooks';
import { api } from '../api';
import type { Agent, App, Connection } from '../types';
import { CheckboxField, FieldError, FormErrors, InputField, useAction, useId, useLoad } from '../ui';
import { ConnectionForm } from './connection-picker';
import { connectionName, hasCapability, useApps } from './tool-sources';

/** What the settings form sends: the agent's own fields. */
export type AgentInput = Pick<
  Agent,
  'name' | 'description' | 'instructions' | 'connectionId' | 'model' | 'temperature' | 'limits' | 'memory'
>;

/** A new agent's settings: the server's defaults for limits and memory. */
const BLANK: AgentInput = {
  name: '',
  description: null,
  instructions: null,
  connectionId: null,
  model: null,
  temperature: null,
  limits: { maxIterations: 10, maxTokens: 100_000, timeoutSeconds: 300 },
  memory: { enabled: false, maxMessages: 20 },
};

/**
 * The model's connection: any connection of an app that is a language model (OpenAI, Anthropic, a
 * self-hosted one...), grouped by app; a new one can be added for any of those apps.
 */
const ModelConnectionPicker = ({
  value,
  onValue,
  errors,
}: {
  value: string | null;
  onValue: (connectionId: string | null) => void;
  errors?: string[];
}) => {
  const apps = useApps();
  const models = (apps.data ?? []).filter((app) => hasCapability(app, 'languageModel'));
  const connections = useLoad(
    () =>
      Promise.all(
        models.map((app) =>
          api.get<Connection[]>(`/apps/${app.key}/connections`).then((r) => ({ app, connections: r.data })),
        ),
      ),
    [models.map((app) => app.key).join()],
  );
  const [adding, setAdding] = useState<App | null>(null);
  const [addKey, setAddKey] = useState('');
  const id = useId('model-connection');
  return (
    <div class="field">
      <label for={id}>Model connection</label>
      <select id={id} value={value ?? ''} onChange={(e) => onValue(e.currentTarget.value || null)}>
        <option value="">{connections.loading ? 'Loading…' : 'Choose a connection…'}</option>
        {connections.data?.map(({ app, connections: list }) =>
          list.length ? (
            <optgroup key={app.key} label={app.name}>
              {list.map((connection) => (
                <option key={connection.id} value={connection.id}>
                  {app.name}: {connectionName(connection)}
                </option>
              ))}
            </optgroup>
          ) : null,
        )}
      </select>
      <p class="hint">The language model the agent asks: a connection of an AI app such as OpenAI or Anthropic.</p>
      <FieldError messages={errors} />
      {!adding && models.length > 0 && (
        <div class="inline">
          <label for={`${id}-add`}>Add a connection to</label>
          <select id={`${id}-add`} value={addKey} onChange={(e) => setAddKey(e.currentTarget.value)}>
            <option value="">Choose an AI app…</option>
            {models.map((app) => (
              <option key={app.key} value={app.key}>
                {app.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={!addKey}
            onClick={() => setAdding(models.find((app) => app.key === addKey) ?? null)}
          >
            Add connection
          </button>
        </div>
      )}
      {apps.data && models.length === 0 && <p class="muted">No app here offers a language model.</p>}
      {adding && (
        <ConnectionForm
          app={adding}
          onCancel={() => setAdding(null)}
          onDone={(created) => {
            setAdding(null);
            connections.reload();
            onValue(created.id);
          }}
        />
      )}
    </div>
  );
};

/** The fields the form edits, and only those: the server refuses others. */
const inputOf = ({
  name,
  description,
  instructions,
  connectionId,
  model,
  temperature,
  limits,
  memory,
}: AgentInput) => ({
  name,
  description,
  instructions,
  connectionId,
  model,
  temperature,
  limits,
  memory,
});

/** The limits of one run, each with its label. */
const LIMITS: readonly (readonly [keyof AgentInput['limits'], string])[] = [
  ['maxIterations', 'Model calls at most'],
  ['maxTokens', 'Tokens at most'],
  ['timeoutSeconds', 'Timeout (seconds)'],
];

/** A number typed in a field: empty is null. */
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/** An agent's settings: what it is, the model it asks and how, its limits and its memory. */
export const AgentSettingsForm = ({
  agent,
  submitLabel,
  onSubmit,
}: {
  agent?: Agent;
  submitLabel: string;
  onSubmit: (input: AgentInput) => Promise<unknown>;
}) => {
  const [input, setInput] = useState<AgentInput>(() => inputOf(agent ?? BLANK));
  const [saved, setSaved] = useState(false);
  const { errors, busy, run } = useAction();
  const set = (changes: Partial<AgentInput>) => {
    setSaved(false);
    setInput({ ...input, ...changes });
  };
  const text = (value: string) => (value === '' ? null : value);
  const instructionsId = useId('instructions');
  const shown = ['name', 'description', 'instructions', 'connectionId', 'model', 'temperature'];
  return (
    <form
      class="card agent-settings"
      aria-label="Agent settings"
      onSubmit={async (event) => {
        event.preventDefault();
        const done = await run(() => onSubmit(input));
        if (done !== undefined) setSaved(true);
      }}
    >
      <FormErrors
        errors={errors}
        fields={[...shown, ...Object.keys(errors).filter((key) => /^(limits|memory)\./.test(key))]}
      />
      <InputField
        label="Name"
        name="name"
        value={input.name}
        onValue={(name) => set({ name })}
        errors={errors}
        required
      />
      <InputField
        label="Description"
        name="description"
        value={input.description ?? ''}
        onValue={(value) => set({ description: text(value) })}
        errors={errors}
      />
      <div class="field">
        <label for={instructionsId}>Instructions</label>
        <textarea
          id={instructionsId}
          rows={6}
          value={input.instructions ?? ''}
          onInput={(e) => set({ instructions: text(e.currentTarget.value) })}
        />
        <p class="hint">What the agent is for and how it works: the model reads them before every conversation.</p>
        <FieldError messages={errors.instructions} />
      </div>
      <ModelConnectionPicker
        value={input.connectionId}
        onValue={(connectionId) => set({ connectionId })}
        errors={errors.connectionId}
      />
      <div class="grid-2">
        <InputField
          label="Model"
          name="model"
          value={input.model ?? ''}
          onValue={(value) => set({ model: text(value) })}
          errors={errors}
          placeholder="the app's default"
          hint="The vendor's model name, such as gpt-4o-mini."
        />
        <InputField
          label="Temperature"
          name="temperature"
          type="number"
          step="0.1"
          min="0"
          max="2"
          value={input.temperature === null ? '' : String(input.temperature)}
          onValue={(value) => set({ temperature: numberOrNull(value) })}
          errors={errors}
          hint="Empty for the model's default."
        />
      </div>
      <fieldset>
        <legend>Limits of one run</legend>
        <div class="grid-3">
          {LIMITS.map(([key, label]) => (
            <InputField
              key={key}
              label={label}
              name={`limits.${key}`}
              type="number"
              min="1"
              value={String(input.limits[key])}
              onValue={(value) => set({ limits: { ...input.limits, [key]: Number(value) } })}
              errors={errors}
            />
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Memory</legend>
        <CheckboxField
          label="Remember conversations (per flow and conversation key)"
          checked={input.memory.enabled}
          onValue={(enabled) => set({ memory: { ...input.memory, enabled } })}
        />
        {input.memory.enabled && (
          <InputField
            label="Messages kept"
            name="memory.maxMessages"
            type="number"
            min="1"
            value={String(input.memory.maxMessages)}
            onValue={(value) => set({ memory: { ...input.memory, maxMessages: Number(value) } })}
            errors={errors}
          />
        )}
      </fieldset>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {saved && (
          <span role="status" class="muted">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
};
