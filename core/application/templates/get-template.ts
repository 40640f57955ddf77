import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Template } from '../../domain/template.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeGetTemplate =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, templateId: string): Promise<Result<Template, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const template = await repos.templates.findById(templateId);
    return template ? ok(template) : err(notFound('Template'));
  };
