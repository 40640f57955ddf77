import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Execution, ExecutionStep, Step, StepCall } from '../types';
import { Badge, ErrorMessage, formatDate, Json } from '../ui';
import { type BranchRun, buildRunTree, calledRunOf, type RunList, type RunNode, waitingFor } from './run-tree';
import { callsOfRecord, callsOfUnfinished } from './step-call-list';
import { StepCalls } from './step-calls';
import { stepLabel } from './step-tree';

/**
 * The run's step calls (an agent's model and tool calls), what to do once a waiting one is
 * decided, and how to run the execution again from a step's record (when it may be).
 */
interface CallsOfRun {
  readonly calls: readonly StepCall[];
  readonly onDecided?: () => void;
  readonly onRerun?: (record: ExecutionStep) => void;
  readonly rerunning?: boolean;
}
const CallsContext = createContext<CallsOfRun>({ calls: [] });

const RecordCalls = ({ calls }: { calls: readonly StepCall[] }) => {
  const { onDecided } = useContext(CallsContext);
  return <StepCalls calls={calls} onDecided={onDecided} />;
};

/** Each record carries its step as it is now; none once the step was deleted. */
const stepName = ({ step }: ExecutionStep) => (step ? stepLabel(step) : 'A step no longer in the flow');

/** Iterations shown open at first; a long loop starts folded after them. */
const OPEN_ITERATIONS = 10;

const InputOutput = ({ record }: { record: ExecutionStep }) => (
  <div class="grid-2">
    <div>
      <h3>Input</h3>
      <Json label="Input" value={record.dataIn} />
    </div>
    <div>
      <h3>{record.status === 'failure' ? 'Error' : 'Output'}</h3>
      {record.status === 'failure' && <ErrorMessage details={record.errorDetails} />}
      <Json
        label={record.status === 'failure' ? 'Error' : 'Output'}
        value={record.status === 'failure' ? record.errorDetails : record.dataOut}
      />
    </div>
  </div>
);

const BranchColumn = ({ branch, context }: { branch: BranchRun; context: Execution }) => (
  <section
    class={`branch ${branch.taken ? 'branch-taken' : 'branch-skipped'}${branch.fallback ? ' branch-fallback' : ''}`}
    aria-label={`Branch: ${branch.name}`}
  >
    <header class="branch-header">
      <h3>
        {branch.name}
        {branch.fallback && <span class="tag">Otherwise</span>}
      </h3>
      <span class="branch-state">{branch.taken ? 'Ran' : 'Did not run'}</span>
    </header>
    {(branch.list.nodes.length > 0 || branch.list.waiting) && <RunSteps list={branch.list} context={context} />}
  </section>
);

const StepRun = ({ node, context }: { node: RunNode; context: Execution }) => {
  const { record, branches, iterations, itemCount } = node;
  const called = calledRunOf(record);
  const structural = branches !== undefined || iterations !== undefined;
  const { calls, onRerun, rerunning } = useContext(CallsContext);
  // The server re-runs a finished run from an action outside loops' iterations (their other
  // iterations would need records of their own); a branch that did not run has no record to offer.
  const rerunnable = onRerun && record.step && record.step.type !== 'trigger' && !record.scope;
  return (
    <article class={`step-card execution-step-${record.status}`} aria-label={stepName(record)}>
      <header class="step-header">
        <h2>{stepName(record)}</h2>
        <Badge status={record.status} />
        {rerunnable && (
          <button
            type="button"
            class="rerun"
            disabled={rerunning}
            title="A new execution that keeps the records of the steps before this one and runs this step and those after it"
            onClick={() => onRerun(record)}
          >
            Re-run from this step
          </button>
        )}
      </header>
      {called && (
        <p>
          <a href={`/executions/${called}`}>Open the called run</a>
        </p>
      )}
      {structural ? (
        <details class="record-data">
          <summary>Input and output</summary>
          <InputOutput record={record} />
        </details>
      ) : (
        <InputOutput record={record} />
      )}
      <RecordCalls calls={callsOfRecord(calls, record)} />
      {branches && (
        <section class="branches" aria-label={`Branches of ${stepName(record)}`}>
          {branches.map((branch) => (
            <BranchColumn key={branch.id} branch={branch} context={context} />
          ))}
        </section>
      )}
      {iterations && (
        <section class="loop-body" aria-label={`Iterations of ${stepName(record)}`}>
          <p class="hint">
            {itemCount === undefined ? '' : `${itemCount} item${itemCount === 1 ? '' : 's'}. `}
            {iterations.length === 0 ? 'No iteration ran.' : ''}
          </p>
          {iterations.map((iteration, at) => (
            <details key={iteration.index} class="iteration" open={at < OPEN_ITERATIONS}>
              <summary>
                Iteration {iteration.index + 1}
                {itemCount !== undefined ? ` of ${itemCount}` : ''}
              </summary>
              <RunSteps list={iteration.list} context={context} />
            </details>
          ))}
        </section>
      )}
    </article>
  );
};

/** Where a waiting or running run stands: its next step has no record yet. */
const WaitingStep = ({ step, context }: { step: Step; context: Execution }) => {
  const label = stepLabel(step);
  // Its record comes when it finishes; calls it made meanwhile (one waiting for approval) show here.
  const calls = callsOfUnfinished(useContext(CallsContext).calls, step.id, context.steps ?? []);
  return (
    <article class="step-card execution-step-waiting" aria-label={label} data-testid="waiting-step">
      <header class="step-header">
        <h2>{label}</h2>
        <Badge status={context.status === 'running' ? 'running' : 'waiting'} />
      </header>
      {context.status === 'running' ? (
        <p>
          <strong>Running now</strong> (or about to, when a worker takes the run up).
        </p>
      ) : (
        <p>
          <strong>{waitingFor(step)}.</strong>{' '}
          {context.resumeAt ? `The run goes on by ${formatDate(context.resumeAt)} at the latest.` : ''}
        </p>
      )}
      <RecordCalls calls={calls} />
    </article>
  );
};

export const RunSteps = ({ list, context }: { list: RunList; context: Execution }) => (
  <ol class="steps">
    {list.nodes.map((node) => (
      <li key={node.record.id}>
        <StepRun node={node} context={context} />
      </li>
    ))}
    {list.waiting && (
      <li>
        <WaitingStep step={list.waiting} context={context} />
      </li>
    )}
  </ol>
);

/** An execution's records as its flow's tree, then any the tree has no place for; each step with its calls. */
export const ExecutionTree = ({ execution, ...calls }: { execution: Execution } & CallsOfRun) => {
  const tree = buildRunTree(execution);
  return (
    <CallsContext.Provider value={calls}>
      <RunSteps list={tree} context={execution} />
      {tree.others.length > 0 && (
        <>
          <h2>Other records</h2>
          <RunSteps list={{ nodes: tree.others.map((record) => ({ record })), waiting: null }} context={execution} />
        </>
      )}
    </CallsContext.Provider>
  );
};
