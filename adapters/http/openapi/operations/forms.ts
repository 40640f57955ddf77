import * as v from 'valibot';
import { formChangesSchema, newFormSchema } from '../../schemas/forms.schemas.js';
import { RESOURCE_SCHEMAS } from '../../schemas/resources.schemas.js';
import { tagged } from '../operation.js';

/** What a form's page posts: its inputs by name (`<key>`, or `<key>.<row>.<subKey>` in an array field). */
const answersSchema = v.record(v.string(), v.string());
const PAGE = 'An HTML page';

/** The caller's forms (Automatisch's `/forms`), and the pages people fill them in on. */
export const FORM_OPERATIONS = tagged('Forms', [
  {
    method: 'GET',
    path: '/forms',
    summary: "The caller's forms, newest first",
    access: 'signed in',
    permission: 'read Flow',
    status: 200,
    answer: v.array(RESOURCE_SCHEMAS.Form),
    returns: 'Form',
  },
  {
    method: 'POST',
    path: '/forms',
    summary: 'Create a form',
    access: 'signed in',
    permission: 'manage Flow',
    body: newFormSchema,
    status: 201,
    answer: RESOURCE_SCHEMAS.Form,
    returns: 'Form',
  },
  {
    method: 'GET',
    path: '/forms/:formId',
    summary: 'One of the caller’s forms',
    access: 'signed in',
    permission: 'read Flow',
    status: 200,
    answer: RESOURCE_SCHEMAS.Form,
    returns: 'Form',
  },
  {
    method: 'PATCH',
    path: '/forms/:formId',
    summary: 'Change a form',
    access: 'signed in',
    permission: 'manage Flow',
    body: formChangesSchema,
    status: 200,
    answer: RESOURCE_SCHEMAS.Form,
    returns: 'Form',
  },
  {
    method: 'DELETE',
    path: '/forms/:formId',
    summary: 'Delete a form',
    access: 'signed in',
    permission: 'manage Flow',
    status: 204,
    returns: 'Deleted',
  },
  {
    method: 'GET',
    path: '/forms/:formId',
    root: true,
    summary: "A form's public page; its query parameters fill in fields",
    access: 'public',
    status: 200,
    returns: PAGE,
  },
  {
    method: 'POST',
    path: '/forms/:formId',
    root: true,
    summary: 'Answer a form: every flow whose trigger names it starts with the answers',
    access: 'public',
    body: answersSchema,
    form: true,
    status: 200,
    returns: `${PAGE}: a flow's "Respond with" answer, or the form's response message (303 to a redirect; 422 the form with its problems)`,
  },
  {
    method: 'GET',
    path: '/webhooks/runs/:executionId/:token/forms/:formId',
    root: true,
    summary: 'The page of a form a waiting run asks for',
    access: 'public',
    status: 200,
    returns: PAGE,
  },
  {
    method: 'POST',
    path: '/webhooks/runs/:executionId/:token/forms/:formId',
    root: true,
    summary: 'Answer a waiting run’s form: the answers reach the run',
    access: 'public',
    body: answersSchema,
    form: true,
    status: 200,
    returns: `${PAGE}: the form's response message (422 the form with its problems)`,
  },
]);
