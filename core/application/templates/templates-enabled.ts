import { type DomainError, forbidden, licenseRequired, notFound } from '../../domain/errors.js';
import { licenseStatus } from '../../domain/license.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Template } from '../../domain/template.js';
import type { CoreDeps } from '../deps.js';

/** Users see templates only on a licensed instance whose administrator switched them on. */
export const templatesRefusal = async (
  deps: Pick<CoreDeps, 'repos' | 'license' | 'clock'>,
): Promise<DomainError | null> => {
  if (!licenseStatus(deps.license.current(), deps.clock.now()).verified) return licenseRequired();
  return (await deps.repos.config.get()).enableTemplates ? null : forbidden('Templates are not enabled.');
};

/** A template a user may start a flow from. */
export const loadUsableTemplate = async (
  deps: Pick<CoreDeps, 'repos' | 'license' | 'clock'>,
  templateId: string,
): Promise<Result<Template, DomainError>> => {
  const refused = await templatesRefusal(deps);
  if (refused) return err(refused);
  const template = await deps.repos.templates.findById(templateId);
  return template ? ok(template) : err(notFound('Template'));
};
