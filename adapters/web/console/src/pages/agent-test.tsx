import { useState } from 'preact/hooks';
import { api } from '../api';
import type { AgentExecution } from '../types';
import { FormErrors, useAction, useId } from '../ui';
import { StepCalls } from './step-calls';

interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A conversation with the agent as it is saved: each message goes with the ones before it to
 * `POST /agents/:id/test`; the answer shows, with the model and tool calls the run made.
 */
export const AgentTest = ({ agentId }: { agentId: string }) => {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [run, setRun] = useState<AgentExecution | null>(null);
  const action = useAction();
  const inputId = useId('test-message');
  const send = async (event: Event) => {
    event.preventDefault();
    const content = draft.trim();
    if (!content) return;
    const asked = [...messages, { role: 'user' as const, content }];
    setMessages(asked);
    setDraft('');
    const answer = await action.run(async () => {
      const { data } = await api.post<{ response: string; executionId: string }>(`/agents/${agentId}/test`, {
        messages: asked,
      });
      const execution = await api
        .get<AgentExecution>(`/agents/${agentId}/executions/${data.executionId}`)
        .then((r) => r.data)
        .catch(() => null);
      return { response: data.response, execution };
    });
    if (answer) {
      setMessages([...asked, { role: 'assistant', content: answer.response }]);
      setRun(answer.execution);
    }
  };
  return (
    <aside class="card agent-test" aria-label="Test the agent">
      <div class="step-definition-header">
        <h2>Test</h2>
        {messages.length > 0 && (
          <button
            type="button"
            class="small"
            onClick={() => {
              setMessages([]);
              setRun(null);
            }}
          >
            New conversation
          </button>
        )}
      </div>
      <p class="hint">Talk to the agent as it is saved. Its tools really run.</p>
      <ol class="chat" aria-live="polite">
        {messages.map((message, at) => (
          <li key={at} class={`chat-message chat-${message.role}`}>
            <span class="visually-hidden">{message.role === 'user' ? 'You: ' : 'Agent: '}</span>
            {message.content}
          </li>
        ))}
        {action.busy && <li class="muted">The agent is working…</li>}
      </ol>
      <FormErrors errors={action.errors} />
      <form class="chat-input" onSubmit={send}>
        <label for={inputId}>Message</label>
        <textarea
          id={inputId}
          rows={3}
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) send(e);
          }}
        />
        <button type="submit" class="primary" disabled={action.busy || !draft.trim()}>
          Send
        </button>
      </form>
      {run?.calls && <StepCalls calls={run.calls} label="Calls of the last answer" />}
    </aside>
  );
};
