import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../../api';
import type { Flow, Timestamp } from '../../types';
import { FormErrors, formatDate, InputField, LoadStatus, Table, useAction, useId, useLoad } from '../../ui';
import { AdminPage } from './admin-page';

interface Template {
  id: string;
  name: string;
  createdAt: Timestamp;
}

export const AdminTemplates = () => {
  const templates = useLoad(() => api.get<Template[]>('/admin/templates').then((r) => r.data), []);
  const flows = useLoad(() => api.get<Flow[]>('/flows?perPage=100').then((r) => r.data), []);
  const [name, setName] = useState('');
  const [flowId, setFlowId] = useState('');
  const [rowErrors, setRowErrors] = useState<FieldErrors>({});
  const { errors, busy, run } = useAction();
  const flowSelect = useId('flow');
  const act = (action: () => Promise<unknown>) => {
    setRowErrors({});
    action().then(templates.reload, (e: unknown) => setRowErrors(errorsOf(e)));
  };
  return (
    <AdminPage title="Templates">
      <p class="hint">Users start flows from templates when templates are enabled in the settings.</p>
      <form
        class="card"
        aria-label="New template"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await run(() => api.post('/admin/templates', { name, flowId }))) {
            setName('');
            templates.reload();
          }
        }}
      >
        <h2>New template from a flow</h2>
        <FormErrors errors={errors} fields={['name']} />
        <div class="grid-2">
          <InputField label="Template name" name="name" value={name} onValue={setName} errors={errors} required />
          <div class="field">
            <label for={flowSelect}>Flow</label>
            <select id={flowSelect} value={flowId} onChange={(e) => setFlowId(e.currentTarget.value)} required>
              <option value="">Choose a flow…</option>
              {flows.data?.map((flow) => (
                <option key={flow.id} value={flow.id}>
                  {flow.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Create template
        </button>
      </form>
      <FormErrors errors={rowErrors} />
      <LoadStatus of={templates} />
      {templates.data?.length === 0 && <p class="empty">No template yet.</p>}
      {templates.data && templates.data.length > 0 && (
        <Table columns={['Name', 'Created']}>
          {templates.data.map((template) => (
            <tr key={template.id}>
              <td>{template.name}</td>
              <td>{formatDate(template.createdAt)}</td>
              <td class="row-actions">
                <button
                  type="button"
                  onClick={() => {
                    const renamed = prompt('New name of the template', template.name);
                    if (renamed) act(() => api.patch(`/admin/templates/${template.id}`, { name: renamed }));
                  }}
                >
                  Rename<span class="visually-hidden"> {template.name}</span>
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    confirm(`Delete the template ${template.name}?`) &&
                    act(() => api.delete(`/admin/templates/${template.id}`))
                  }
                >
                  Delete<span class="visually-hidden"> {template.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </AdminPage>
  );
};
