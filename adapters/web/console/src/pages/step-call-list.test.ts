import { describe, expect, it } from 'vitest';
import type { ExecutionStep, StepCall } from '../types';
import { clientConfiguration } from './mcp-client-config';
import { callsOfRecord, callsOfUnfinished, inOrder, totalUsage } from './step-call-list';

const call = (fields: Partial<StepCall>): StepCall => ({
  id: `c-${fields.seq ?? 0}-${fields.stepKey ?? ''}`,
  executionId: 'e',
  stepKey: 'a@',
  stepId: 'a',
  seq: 0,
  kind: 'tool',
  name: 'tool',
  input: null,
  output: null,
  status: 'success',
  error: null,
  usage: null,
  startedAt: 0,
  finishedAt: 0,
  ...fields,
});
const record = (stepId: string, scope: string) => ({ id: `r-${stepId}-${scope}`, stepId, scope }) as ExecutionStep;

describe('a run’s step calls', () => {
  const calls = [
    call({ seq: 1, stepKey: 'a@' }),
    call({ seq: 0, stepKey: 'a@', kind: 'model', usage: { inputTokens: 10, outputTokens: 2 } }),
    call({ seq: 0, stepKey: 'b@loop:0', stepId: 'b', kind: 'model', usage: { inputTokens: 5, outputTokens: 1 } }),
    call({ seq: 0, stepKey: 'b@loop:1', stepId: 'b' }),
  ];

  it('goes under the record of the step where it ran, each loop iteration its own', () => {
    expect(callsOfRecord(calls, record('a', '')).map((c) => c.seq)).toEqual([1, 0]);
    expect(callsOfRecord(calls, record('b', 'loop:1'))).toEqual([calls[3]]);
    expect(callsOfRecord(calls, record('b', ''))).toEqual([]);
  });

  it('of a step still waiting (no record yet), are those no record of it claims', () => {
    expect(callsOfUnfinished(calls, 'b', [record('b', 'loop:0')])).toEqual([calls[3]]);
    expect(callsOfUnfinished(calls, 'c', [])).toEqual([]);
  });

  it('are shown in the order they were made, with the tokens the model calls took', () => {
    expect(inOrder(callsOfRecord(calls, record('a', ''))).map((c) => c.kind)).toEqual(['model', 'tool']);
    expect(totalUsage(calls)).toEqual({ inputTokens: 15, outputTokens: 3 });
  });
});

describe('an MCP client’s configuration', () => {
  it('reaches the server’s address through mcp-remote, under a key made of its name', () => {
    expect(JSON.parse(clientConfiguration('Team tools!', 'https://c.example/api/v1/mcp/t0k'))).toEqual({
      mcpServers: { 'team-tools': { command: 'npx', args: ['-y', 'mcp-remote', 'https://c.example/api/v1/mcp/t0k'] } },
    });
    expect(Object.keys(JSON.parse(clientConfiguration('***', 'u')).mcpServers)).toEqual(['conveyor']);
  });
});
