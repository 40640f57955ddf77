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
