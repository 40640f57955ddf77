import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors, request } from '../api';
import { JsonView } from '../json-tree';
import type { ExecutionStep, Step, StepDefinition } from '../types';
import { ErrorMessage, FormErrors } from '../ui';
import { isDraftConflict } from './draft';

/** How long "Listen for a test event" waits: under the usual proxies' minute, and the server's limit. */
export const LISTEN_SECONDS = 60;

/** What the listener asks the sender to do, by the trigger's kind. */
const HINTS = {
  webhook: 'Send a request to the webhook address above.',
  listener: 'Send a message to the queue or topic the trigger listens to.',
  polling: 'Add something new where the trigger looks; it looks every few seconds.',
} as const;

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

interface StepTestProps {
  readonly step: Step;
  readonly definition: StepDefinition;
  /** Something else of the step is under way: its buttons wait. */
  readonly busy: boolean;
  /** Saves the step's unsaved edits first: a test runs the step as stored. */
  readonly beforeTest: () => Promise<void>;
  readonly onTested: (step: Step) => void;
}

/**
 * A step's Test section: "Test step" runs the flow up to it with what the trigger has now; a
 * trigger's "Listen for a test event" waits (with a countdown, and a way to stop) for its next
 * event and tests with that. The output shows as a tree, or as raw JSON.
 */
export const StepTest = ({ step, definition, busy, beforeTest, onTested }: StepTestProps) => {
  const [tested, setTested] = useState<ExecutionStep | null>(step.lastExecutionStep ?? null);
  const [running, setRunning] = useState<'test' | 'listen' | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [note, setNote] = useState<string | null>(null);
  const [left, setLeft] = useState(0);
  const listening = useRef<AbortController | null>(null);
  const kind = step.type === 'trigger' && definition.type && definition.type !== 'schedule' ? definition.type : null;

  // Leaving the page (or the step) stops the wait: the server ends it when the request goes.
  useEffect(() => () => listening.current?.abort(), []);
  useEffect(() => {
    if (running !== 'listen') return;
    const timer = setInterval(() => setLeft((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => clearInterval(timer);
  }, [running]);

  const run = async (name: 'test' | 'listen', action: () => Promise<void>) => {
    setRunning(name);
    setErrors({});
    setNote(null);
    try {
      await beforeTest();
      await action();
    } catch (error) {
      if (listening.current?.signal.aborted) setNote('Stopped listening.');
      else if (!isDraftConflict(error)) setErrors(errorsOf(error));
    } finally {
      listening.current = null;
      setRunning(null);
    }
  };
  const show = (answer: Step) => {
    setTested(answer.lastExecutionStep ?? null);
    onTested(answer);
  };
  const test = () =>
    run('test', async () => {
      show((await api.post<Step>(`/steps/${step.id}/test`)).data);
    });
  const listen = () =>
    run('listen', async () => {
      const controller = new AbortController();
      listening.current = controller;
      setLeft(LISTEN_SECONDS);
      const answer = await request<Step | null>(
        'POST',
        `/steps/${step.id}/test-event`,
        { timeoutSeconds: LISTEN_SECONDS },
        {},
        controller.signal,
      );
      if (answer.data) show(answer.data);
      else setNote(`No event arrived within ${LISTEN_SECONDS} seconds. Listen again when you are ready to send one.`);
    });

  return (
    <div class="step-test">
      <div class="step-test-actions">
        <button type="button" class="primary" onClick={() => void test()} disabled={busy || running !== null}>
          {running === 'test' ? 'Testing…' : 'Test step'}
        </button>
        {kind && (
          <button type="button" onClick={() => void listen()} disabled={busy || running !== null}>
            Listen for a test event
          </button>
        )}
      </div>
      {running === 'listen' && kind && (
        <div class="listening">
          <span>Listening for a test event… {HINTS[kind]}</span>
          <span class="countdown" role="timer" aria-label="Time left">
            {clock(left)}
          </span>
          <button type="button" class="small" onClick={() => listening.current?.abort()}>
            Cancel
          </button>
        </div>
      )}
      <div aria-live="polite">{note && <p class="hint">{note}</p>}</div>
      <FormErrors errors={errors} />
      {tested && running !== 'listen' && (
        <div class={`test-result test-${tested.status}`} role="status" aria-live="polite">
          <p>
            <strong>{tested.status === 'success' ? 'Test succeeded.' : 'Test failed.'}</strong>{' '}
            {tested.status === 'success' ? 'Output:' : 'Error:'}
          </p>
          {tested.status === 'failure' && <ErrorMessage details={tested.errorDetails} />}
          <JsonView
            label={tested.status === 'success' ? 'Test output' : 'Test error'}
            value={tested.status === 'success' ? tested.dataOut : tested.errorDetails}
          />
        </div>
      )}
    </div>
  );
};
