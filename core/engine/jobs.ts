/** Runs an execution; payload `{executionId}`. */
export const EXECUTION_JOB = 'execution.run';
/** Fires a flow's schedule or polling trigger; payload `{flowId}`. */
export const FLOW_TRIGGER_JOB = 'flow.trigger';

/** The queue schedule that fires a flow's trigger. */
export const flowScheduleKey = (flowId: string) => `flow:${flowId}`;
