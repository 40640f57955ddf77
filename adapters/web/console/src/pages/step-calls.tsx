import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../api';
import type { StepCall, TokenUsage } from '../types';
import { Badge, FormErrors, formatDate, Json } from '../ui';
import { inOrder, totalUsage } from './step-call-list';

const tokens = (usage: TokenUsage | null) =>
  usage ? `${usage.inputTokens} tokens in, ${usage.outputTokens} out` : 'tokens not reported';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A waiting tool call: the person decides, and the run goes on (or tells the model it was denied). */
const Approval = ({ call, onDecided }: { call: StepCall; onDecided: () => void }) => {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const decide = (approved: boolean) => {
    setBusy(true);
    setErrors({});
    api.post(`/executions/${call.executionId}/calls/${call.id}/approval`, { approved }).then(
      () => {
        setBusy(false);
        onDecided();
      },
      (e: unknown) => {
        setBusy(false);
        setErrors(errorsOf(e));
      },
    );
  };
  return (
    <fieldset class="approval">
      <legend>This tool waits for your approval.</legend>
      <p>The agent goes on once you decide.</p>
      <FormErrors errors={errors} />
      <div class="buttons">
        <button type="button" class="primary" disabled={busy} onClick={() => decide(true)}>
          Approve<span class="visually-hidden"> {call.name}</span>
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => decide(false)}>
          Deny<span class="visually-hidden"> {call.name}</span>
        </button>
      </div>
    </fieldset>
  );
};

const CallEntry = ({ call, onDecided }: { call: StepCall; onDecided?: () => void }) => {
  const model = call.kind === 'model';
  const label = `${model ? 'Model' : 'Tool'} ${call.name}`;
  return (
    <li class={`step-call step-call-${call.kind} step-call-${call.status}`} aria-label={label}>
      <header class="step-call-header">
        <span class="tag">{model ? 'Model' : 'Tool'}</span>
        <strong>{call.name}</strong>
        <Badge status={call.status} />
        <span class="muted">{model ? tokens(call.usage) : formatDate(call.startedAt)}</span>
      </header>
      {call.error && <p class="error-message">{call.error}</p>}
      {model ? (
        <details>
          <summary>Messages and answer</summary>
          <div class="grid-2">
            <Json label="Model input" value={call.input} />
            <Json label="Model output" value={call.output} />
          </div>
        </details>
      ) : (
        <div class="grid-2">
          <div>
            <h4>Input</h4>
            <Json label="Tool input" value={call.input} />
          </div>
          {(call.status === 'success' || call.output !== null) && (
            <div>
              <h4>{call.status === 'success' ? 'Output' : 'Details'}</h4>
              <Json label="Tool output" value={call.output} />
            </div>
          )}
        </div>
      )}
      {call.status === 'waiting' && onDecided && <Approval call={call} onDecided={onDecided} />}
    </li>
  );
};

/**
 * A step's calls in the order it made them: the model's (with the tokens they took) and the
 * tools' (with what went in and came out); a call waiting for approval offers Approve and Deny.
 */
export const StepCalls = ({
  calls,
  onDecided,
  label = 'Calls',
}: {
  calls: readonly StepCall[];
  /** Given where a person can approve waiting calls: called once they did. */
  onDecided?: () => void;
  label?: string;
}) => {
  if (calls.length === 0) return null;
  const usage = totalUsage(calls);
  const sorted = inOrder(calls);
  return (
    <section class="step-calls" aria-label={label}>
      <h3>
        {label} ({calls.length})
      </h3>
      <p class="hint">
        {count(calls.filter((c) => c.kind === 'model').length, 'model call')} ({usage.inputTokens} tokens in,{' '}
        {usage.outputTokens} out), {count(calls.filter((c) => c.kind === 'tool').length, 'tool call')}.
      </p>
      <ol class="step-call-list">
        {sorted.map((call) => (
          <CallEntry key={call.id} call={call} onDecided={onDecided} />
        ))}
      </ol>
    </section>
  );
};
