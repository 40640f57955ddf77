import { Hono } from 'hono';
import { RELEASE } from '../../../core/domain/release.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendOne } from '../envelope.js';
import { presentLicense } from '../presenters/administration.presenter.js';

export const serviceRoutes = ({ useCases }: HttpDeps) =>
  new Hono<AppEnv>()
    .get('/service/info', async (c) => sendOne(c, 'Object', await useCases.getServiceInfo()))
    .get('/service/version', (c) => sendOne(c, 'Object', { version: RELEASE }))
    .get('/service/license', (c) => sendOne(c, 'Object', presentLicense(useCases.getLicenseStatus())));
