import { Hono } from 'hono';
import { RELEASE } from '../../../core/domain/release.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendOne } from '../envelope.js';
import { presentConfig, presentLicense } from '../presenters/administration.presenter.js';

/**
 * Where the instance describes itself. Automatisch's clients ask the same questions under
 * `/automatisch`, so both prefixes answer them, on both mounts.
 */
const SERVICE_PREFIXES = ['/service', '/automatisch'] as const;

const serviceAnswers = ({ useCases }: HttpDeps) =>
  new Hono<AppEnv>()
    .get('/info', async (c) => sendOne(c, 'Object', await useCases.getServiceInfo()))
    .get('/version', (c) => sendOne(c, 'Object', { version: RELEASE }))
    .get('/license', (c) => sendOne(c, 'Object', presentLicense(useCases.getLicenseStatus())))
    .get('/config', async (c) => sendOne(c, 'Config', presentConfig(await useCases.getInstanceConfig())))
    // Automatisch relays a feed of its company's announcements here; Conveyor has none to relay.
    .get('/notifications', (c) => sendMany(c, 'Object', []));

export const serviceRoutes = (deps: HttpDeps) => {
  const answers = serviceAnswers(deps);
  return SERVICE_PREFIXES.reduce((app, prefix) => app.route(prefix, answers), new Hono<AppEnv>());
};
