import { api } from '../api';
import { Dialog } from '../dialog';
import { useSession } from '../session';
import type { BuiltInTemplate } from '../types';
import { LoadStatus, useLoad } from '../ui';

/** Where a new flow comes from: a built-in template by key, or one of the instance's templates by id. */
export type TemplateChoice = { builtInTemplate: string } | { templateId: string };

/**
 * The instance's own templates: listed only with a licence and once an administrator enabled them
 * (else 403), so the public configuration says whether to ask.
 */
const useInstanceTemplates = () => {
  const { info } = useSession();
  return useLoad(async () => {
    if (!info.isEnterprise) return [];
    const { enableTemplates } = (await api.get<{ enableTemplates: boolean }>('/service/config')).data;
    if (!enableTemplates) return [];
    return api.get<{ id: string; name: string }[]>('/templates').then(
      (r) => r.data,
      () => [],
    );
  }, [info.isEnterprise]);
};

const Card = ({
  name,
  description,
  apps,
  onUse,
  busy,
}: {
  name: string;
  description?: string;
  apps?: BuiltInTemplate['apps'];
  onUse: () => void;
  busy: boolean;
}) => (
  <li class="template-card">
    <h3>{name}</h3>
    {apps && apps.length > 0 && (
      <p class="template-apps">
        {apps.map((app, index) => (
          <span key={app.key} class="template-app">
            {index > 0 && <span aria-hidden="true">→</span>}
            <img class="app-icon" src={app.iconUrl} alt="" width={20} height={20} />
            {app.name}
          </span>
        ))}
      </p>
    )}
    {description && <p>{description}</p>}
    <button type="button" class="primary" disabled={busy} onClick={onUse} aria-label={`Use this template: ${name}`}>
      Use this template
    </button>
  </li>
);

/** The templates one may start a flow from: Conveyor's own for everyone, and the instance's when enabled. */
export const TemplateGallery = ({
  onUse,
  onClose,
  busy,
}: {
  onUse: (choice: TemplateChoice) => void;
  onClose: () => void;
  busy: boolean;
}) => {
  const builtIn = useLoad(() => api.get<BuiltInTemplate[]>('/templates/built-in').then((r) => r.data), []);
  const instance = useInstanceTemplates();
  return (
    <Dialog title="Start from a template" onClose={onClose}>
      <p class="muted">
        A template makes a new flow with its steps in place; you then choose your connections and fill in what is left,
        such as addresses.
      </p>
      {!builtIn.data && <LoadStatus of={builtIn} />}
      {builtIn.data && (
        <section aria-label="Built-in templates">
          <ul class="template-grid">
            {builtIn.data.map((template) => (
              <Card
                key={template.key}
                name={template.name}
                description={template.description}
                apps={template.apps}
                busy={busy}
                onUse={() => onUse({ builtInTemplate: template.key })}
              />
            ))}
          </ul>
        </section>
      )}
      {instance.data && instance.data.length > 0 && (
        <section aria-labelledby="instance-templates">
          <h3 id="instance-templates">Your organisation’s templates</h3>
          <ul class="template-grid">
            {instance.data.map((template) => (
              <Card
                key={template.id}
                name={template.name}
                busy={busy}
                onUse={() => onUse({ templateId: template.id })}
              />
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
};
