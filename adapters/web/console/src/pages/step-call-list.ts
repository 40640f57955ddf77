import type { ExecutionStep, StepCall, TokenUsage } from '../types';

/** A step's calls where it ran: a call's key is the step's id and its loop iterations (`<stepId>@<scope>`). */
export const callsOfRecord = (calls: readonly StepCall[], record: ExecutionStep) =>
  calls.filter((call) => call.stepKey === `${record.stepId}@${record.scope ?? ''}`);

/** The calls of a step that has no record yet (it waits): those of its id that no record claims. */
export const callsOfUnfinished = (calls: readonly StepCall[], stepId: string, records: readonly ExecutionStep[]) =>
  calls.filter((call) => call.stepId === stepId && !records.some((record) => callsOfRecord([call], record).length));

/** In the order the step made them. */
export const inOrder = (calls: readonly StepCall[]) => [...calls].sort((a, b) => a.seq - b.seq);

/** The tokens of all model calls together. */
export const totalUsage = (calls: readonly StepCall[]): TokenUsage =>
  calls.reduce(
    (sum, call) => ({
      inputTokens: sum.inputTokens + (call.usage?.inputTokens ?? 0),
      outputTokens: sum.outputTokens + (call.usage?.outputTokens ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0 },
  );
