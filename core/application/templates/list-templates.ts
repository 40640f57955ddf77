import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Template } from '../../domain/template.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { templatesRefusal } from './templates-enabled.js';

export const makeListTemplates =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor): Promise<Result<Template[], DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(await repos.templates.list());
  };

/** What users may start from: every template, once templates are enabled. */
export const makeListPublicTemplates =
  (deps: Pick<CoreDeps, 'repos' | 'license' | 'clock'>) =>
  async (_actor: Actor): Promise<Result<Template[], DomainError>> => {
    const refused = await templatesRefusal(deps);
    return refused ? err(refused) : ok(await deps.repos.templates.list());
  };
