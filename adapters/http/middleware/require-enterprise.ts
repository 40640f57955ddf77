import { createMiddleware } from 'hono/factory';
import { licenseRequired } from '../../../core/domain/errors.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { fail } from '../failures.js';

/** Marks an enterprise route: without a valid, unexpired licence it answers 403. */
export const requireEnterprise = ({ useCases }: Pick<HttpDeps, 'useCases'>) =>
  createMiddleware<AppEnv>(async (_c, next) => {
    if (!useCases.getLicenseStatus().verified) return fail(licenseRequired());
    await next();
  });
