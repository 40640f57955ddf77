import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { STRUCTURAL_ACTIONS } from '../../domain/step-tree.js';
import type { CoreDeps } from '../deps.js';
import { BUILT_IN_TEMPLATES, type BuiltInTemplate } from './built-in/index.js';

/** An app a built-in template uses, for the gallery to show. */
export interface TemplateApp {
  readonly key: string;
  readonly name: string;
  readonly iconUrl: string;
}

export interface BuiltInTemplateView extends BuiltInTemplate {
  /** The apps of its steps, in the order they first appear; structural steps (paths, branches) left out. */
  readonly apps: readonly TemplateApp[];
}

const STRUCTURAL_APP_KEYS: ReadonlySet<string> = new Set(Object.values(STRUCTURAL_ACTIONS).map((a) => a.appKey));

const view = (deps: Pick<CoreDeps, 'apps'>, template: BuiltInTemplate): BuiltInTemplateView => {
  const keys = [
    ...new Set(
      template.flowData.steps.flatMap((step) =>
        step.appKey && !STRUCTURAL_APP_KEYS.has(step.appKey) ? [step.appKey] : [],
      ),
    ),
  ];
  const apps = keys.flatMap((key) => {
    const app = deps.apps.find(key);
    return app ? [{ key, name: app.name, iconUrl: app.iconUrl }] : [];
  });
  return { ...template, apps };
};

/** The templates shipped with Conveyor: every signed-in caller may start from them, licence or not. */
export const makeListBuiltInTemplates =
  (deps: Pick<CoreDeps, 'apps'>) =>
  async (_actor: Actor): Promise<Result<BuiltInTemplateView[], DomainError>> =>
    ok(BUILT_IN_TEMPLATES.map((template) => view(deps, template)));

/** One built-in template by its key. */
export const findBuiltInTemplate = (key: string): Result<BuiltInTemplate, DomainError> => {
  const template = BUILT_IN_TEMPLATES.find((t) => t.key === key);
  return template ? ok(template) : err(notFound('Template'));
};
