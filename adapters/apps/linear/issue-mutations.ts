import type { AppContext } from '../sdk/index.js';
import { ISSUE_FIELDS, linearGraphql } from './graphql.js';

interface Payload {
  readonly success: boolean;
  readonly issue?: unknown;
}

/**
 * Runs `issueCreate` or `issueUpdate` and answers the issue. Linear answers `success: false`
 * (without `errors`) when it did nothing.
 */
export const issueMutation = async (
  ctx: AppContext<unknown>,
  mutation: 'issueCreate' | 'issueUpdate',
  variables: { readonly id?: string; readonly input: Readonly<Record<string, unknown>> },
) => {
  const signature =
    mutation === 'issueCreate' ? '($input: IssueCreateInput!)' : '($id: String!, $input: IssueUpdateInput!)';
  const call = mutation === 'issueCreate' ? 'issueCreate(input: $input)' : 'issueUpdate(id: $id, input: $input)';
  const data = await linearGraphql<Record<string, Payload>>(
    ctx,
    `mutation${signature} { ${call} { success issue { ${ISSUE_FIELDS} } } }`,
    variables,
  );
  const payload = data[mutation];
  if (!payload?.success || !payload.issue) throw new Error(`Linear: ${mutation} did not succeed.`);
  return payload.issue;
};

/** The input fields that were given: Linear would clear a field sent as null. */
export const given = (fields: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
