import { bodyProblem, headersProblem, statusProblem } from '../../../core/domain/webhook-answer.js';
import {
  boolean,
  defineAction,
  defineApp,
  defineTrigger,
  jsonOrText,
  keyValueList,
  noAuth,
  number,
  text,
} from '../sdk/index.js';
import { icon } from './icon.js';

const catchRawWebhook = defineTrigger({
  key: 'catchRawWebhook',
  name: 'Catch raw webhook',
  description: 'Starts the flow with each request sent to its webhook address: method, headers, query and body.',
  type: 'webhook',
  arguments: {
    workSynchronously: boolean({
      label: 'Wait for the flow to answer',
      default: false,
      description: 'Callers use the /sync address and get the answer of a "Respond with" step.',
    }),
  },
  async run(ctx) {
    return [{ data: ctx.webhook ?? { method: 'GET', headers: {}, query: {}, body: null } }];
  },
});

const respondWith = defineAction({
  key: 'respondWith',
  name: 'Respond with',
  description: 'The answer a synchronous webhook call gets: status, headers and body.',
  arguments: {
    statusCode: number({
      label: 'Status code',
      default: 200,
      integer: true,
      acceptsVariables: true,
      description: 'From 200 to 599.',
      check: statusProblem,
    }),
    headers: keyValueList({
      label: 'Headers',
      acceptsVariables: true,
      description:
        'Set-Cookie and the security headers the server sets itself (Content-Security-Policy, X-Frame-Options and the like) are not sent.',
      check: headersProblem,
    }),
    body: text({ label: 'Body', acceptsVariables: true, description: 'JSON is sent as JSON, other text as text.' }),
  },
  check: ({ statusCode, body }) => {
    const problem = bodyProblem(statusCode, body !== undefined);
    return problem ? { body: problem } : null;
  },
  async run(ctx) {
    const { statusCode, headers = [], body } = ctx.parameters;
    return {
      statusCode,
      headers: Object.fromEntries(headers.map((h) => [h.key, h.value])),
      body: jsonOrText(body),
    };
  },
});

export const webhook = defineApp({
  key: 'webhook',
  name: 'Webhook',
  description: 'Start flows with HTTP requests, and answer them.',
  icon,
  primaryColor: '#0059f7',
  categories: ['developer-tools', 'flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [catchRawWebhook],
  actions: [respondWith],
});
