import { graphqlRequestSchema } from '../../graphql/request.js';
import { type HttpMethod, tagged } from '../operation.js';

const WEBHOOK_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Webhook intake (API.md §8) answers every method alike, and GraphQL (API.md §7). */
export const INTAKE_OPERATIONS = tagged('Webhooks and GraphQL', [
  ...WEBHOOK_METHODS.map((method) => ({
    method,
    path: '/webhooks/flows/:flowId',
    root: true,
    summary: "Start a published flow whose trigger is a webhook; any body (JSON, form or text) is the trigger's data",
    access: 'public' as const,
    status: 204,
    returns: 'The run is stored',
  })),
  ...WEBHOOK_METHODS.map((method) => ({
    method,
    path: '/webhooks/flows/:flowId/sync',
    root: true,
    summary: 'Run the flow now and answer with its "respond with" step',
    access: 'public' as const,
    status: 200,
    returns: "The flow's answer, or the execution when it has no respond step",
  })),
  ...WEBHOOK_METHODS.map((method) => ({
    method,
    path: '/webhooks/runs/:executionId/:token',
    root: true,
    summary:
      "Resume a waiting run (its resume URL, the token its guard): the request is kept for the run's waiting step",
    access: 'public' as const,
    status: 202,
    returns: '{data: {executionId}}: the request is kept and the run woken',
  })),
  ...(['approve', 'reject'] as const).flatMap((answer) => [
    {
      method: 'GET' as const,
      path: `/webhooks/runs/:executionId/:token/${answer}`,
      root: true,
      summary: `The page that asks to ${answer} a waiting run's request; opening it answers nothing`,
      access: 'public' as const,
      status: 200,
      returns: 'An HTML page with a button that posts the answer',
    },
    {
      method: 'POST' as const,
      path: `/webhooks/runs/:executionId/:token/${answer}`,
      root: true,
      summary: `${answer === 'approve' ? 'Approve' : 'Reject'} a waiting run's request (its waitForApproval step)`,
      access: 'public' as const,
      status: 200,
      returns: 'An HTML page thanking for the answer',
    },
  ]),
  {
    method: 'POST',
    path: '/graphql',
    root: true,
    summary: 'Run one GraphQL operation',
    access: 'signed in',
    body: graphqlRequestSchema,
    status: 200,
    returns: 'A GraphQL answer {data, errors?}',
  },
]);
