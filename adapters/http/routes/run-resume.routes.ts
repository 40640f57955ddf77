import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { unwrap } from '../respond.js';
import { type Answer, sendConfirmation, sendLinkNotFound, sendThanks } from '../resume-pages.js';
import { idParam, isUuid } from '../validation.js';
import { incoming, METHODS } from './webhooks.routes.js';

/** A run's resume URL (`{{execution.resumeUrl}}`): what reaches it resumes the run. */
export const RESUME_ROUTE = '/webhooks/runs/:executionId/:token';

/** Credentials a caller sent along are not the flow's to keep: the run stores the request. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const withoutSecrets = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADERS.has(name.toLowerCase())));

const ANSWERS: readonly Answer[] = ['approve', 'reject'];

/** The run and token a page's address names; null when the id is no id (it names nothing). */
const resumeUrlOf = (c: Context) => {
  const executionId = c.req.param('executionId') ?? '';
  return isUuid(executionId) ? { executionId: executionId.toLowerCase(), token: c.req.param('token') ?? '' } : null;
};

/**
 * The resume URLs of waiting runs (the wait app): a request on the URL itself is a `webhook`
 * signal; `/approve` and `/reject` show a page whose button posts an `approval` signal. The token
 * is the only guard: a wrong one, an unknown run and a finished one are all not found.
 */
export const runResumeRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const routes = new Hono<AppEnv>().on(METHODS, RESUME_ROUTE, async (c) => {
    const executionId = idParam(c, 'executionId', 'Execution');
    const request = await incoming(c);
    const answer = unwrap(
      await useCases.signalRun({
        executionId,
        token: c.req.param('token'),
        kind: 'webhook',
        payload: { ...request, headers: withoutSecrets(request.headers) },
      }),
    );
    return sendOne(c, 'Object', { executionId: answer.executionId }, 202);
  });

  for (const answer of ANSWERS) {
    const path = `${RESUME_ROUTE}/${answer}`;
    routes
      .get(path, async (c) => {
        const url = resumeUrlOf(c);
        if (!url) return sendLinkNotFound(c);
        const found = await useCases.checkResumeUrl(url);
        if (!found.ok && found.error.code === 'resource.not_found') return sendLinkNotFound(c);
        unwrap(found);
        return sendConfirmation(c, answer);
      })
      .post(path, async (c) => {
        const url = resumeUrlOf(c);
        if (!url) return sendLinkNotFound(c);
        const signalled = await useCases.signalRun({
          ...url,
          kind: 'approval',
          payload: { approved: answer === 'approve' },
        });
        if (!signalled.ok && signalled.error.code === 'resource.not_found') return sendLinkNotFound(c);
        unwrap(signalled);
        return sendThanks(c, answer);
      });
  }
  return routes;
};
