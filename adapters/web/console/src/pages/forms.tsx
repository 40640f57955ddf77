import { api } from '../api';
import type { Form } from '../types';
import { Empty, FormErrors, formatDate, LoadStatus, Page, Table, useLoad, useRemoval } from '../ui';

/** Where anyone answers a form: the server serves it at `/forms/:id`, beside the console. */
export const publicFormUrl = (formId: string) => `${location.origin}/forms/${formId}`;

/** The user's forms: their public addresses, and the way to build, change and delete them. */
export const Forms = () => {
  const forms = useLoad(() => api.get<Form[]>('/forms').then((r) => r.data), []);
  const removal = useRemoval(forms.reload);
  const remove = (form: Form) =>
    removal.remove(
      `Delete the form “${form.name}”? Its page goes, and flows that use it get no more answers.`,
      `/forms/${form.id}`,
    );
  return (
    <Page
      title="Forms"
      actions={
        <a class="button primary" href="/form-entities/create">
          Create form
        </a>
      }
    >
      <p class="hint">
        Anyone with a form’s address can fill it in. Flows whose trigger is the Forms app’s “New form submission” of
        that form start with the answers.
      </p>
      <FormErrors errors={removal.errors} />
      <LoadStatus of={forms} />
      {forms.data?.length === 0 && <Empty>No form yet. Create one, then pick it in a flow’s trigger.</Empty>}
      {forms.data && forms.data.length > 0 && (
        <Table columns={['Name', 'Public address', 'Fields', 'Updated']}>
          {forms.data.map((form) => (
            <tr key={form.id}>
              <td>
                <a href={`/form-entities/${form.id}`}>{form.name}</a>
              </td>
              <td>
                <a href={publicFormUrl(form.id)} target="_blank" rel="noreferrer" data-testid="public-form-url">
                  {publicFormUrl(form.id)}
                </a>
              </td>
              <td>{form.fields.length}</td>
              <td>{formatDate(form.updatedAt)}</td>
              <td class="row-actions">
                <button
                  type="button"
                  class="small"
                  onClick={() => void navigator.clipboard?.writeText(publicFormUrl(form.id))}
                >
                  Copy address<span class="visually-hidden"> of {form.name}</span>
                </button>
                <button type="button" class="danger" onClick={() => remove(form)}>
                  Delete<span class="visually-hidden"> {form.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
};
