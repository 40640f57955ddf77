import { dropdown, dynamicDropdown, number, restAction, segment, text } from '../sdk/index.js';

export const findResponses = restAction({
  key: 'findResponses',
  name: 'Find responses',
  description: "Finds a form's responses, newest first: those matching a text, submitted in a time range.",
  arguments: {
    formId: dynamicDropdown({ label: 'Form', required: true, dynamicData: 'listForms', acceptsVariables: true }),
    query: text({
      label: 'Search',
      description: 'Only responses with this text in an answer, hidden field or variable.',
      acceptsVariables: true,
    }),
    since: text({
      label: 'Submitted since',
      description: 'ISO 8601 UTC (2024-03-20T14:00:59) or Unix seconds, inclusive.',
      acceptsVariables: true,
    }),
    until: text({ label: 'Submitted until', description: 'Same format, inclusive.', acceptsVariables: true }),
    completed: dropdown({
      label: 'Completed',
      default: 'any',
      options: [
        { label: 'Completed and partial', value: 'any' },
        { label: 'Completed only', value: 'true' },
        { label: 'Partial only', value: 'false' },
      ],
    }),
    pageSize: number({ label: 'At most', integer: true, min: 1, max: 1000, default: 25 }),
  },
  request: (p) => ({
    path: `/forms/${segment(p.formId)}/responses`,
    query: {
      page_size: p.pageSize,
      sort: 'submitted_at,desc',
      query: p.query,
      since: p.since,
      until: p.until,
      completed: p.completed === 'any' ? undefined : p.completed,
    },
  }),
});
