import { dynamicDropdown, restAction, segment, text } from '../sdk/index.js';

const idsOf = (list: string) =>
  list
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');

export const deleteResponses = restAction({
  key: 'deleteResponses',
  name: 'Delete responses',
  description: 'Deletes responses of a form by their ids (Typeform removes them shortly after).',
  arguments: {
    formId: dynamicDropdown({ label: 'Form', required: true, dynamicData: 'listForms', acceptsVariables: true }),
    responseIds: text({
      label: 'Response ids',
      required: true,
      description: 'One id, or several separated by commas (up to 1000).',
      acceptsVariables: true,
    }),
  },
  check: (p) => {
    const count = idsOf(p.responseIds).length;
    if (count === 0) return { responseIds: 'must name at least one id.' };
    return count > 1000 ? { responseIds: 'must hold at most 1000 ids.' } : null;
  },
  request: (p) => ({
    method: 'DELETE',
    path: `/forms/${segment(p.formId)}/responses`,
    query: { included_response_ids: idsOf(p.responseIds).join(',') },
  }),
  output: (_data, p) => ({ formId: p.formId, deletedResponseIds: idsOf(p.responseIds) }),
});
