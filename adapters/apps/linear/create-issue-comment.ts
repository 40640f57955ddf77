import { defineAction, text } from '../sdk/index.js';
import { issueIdArgument } from './arguments.js';
import { linearGraphql } from './graphql.js';

interface CommentPayload {
  readonly commentCreate: { readonly success: boolean; readonly comment?: unknown };
}

export const createIssueComment = defineAction({
  key: 'createIssueComment',
  name: 'Comment on issue',
  description: 'Adds a comment to an issue.',
  arguments: {
    issueId: issueIdArgument(),
    body: text({ label: 'Comment', required: true, description: 'Markdown.', acceptsVariables: true }),
  },
  async run(ctx) {
    const { commentCreate } = await linearGraphql<CommentPayload>(
      ctx,
      `mutation($input: CommentCreateInput!) {
        commentCreate(input: $input) { success comment { id body url createdAt user { id name } issue { id identifier } } }
      }`,
      { input: { issueId: ctx.parameters.issueId, body: ctx.parameters.body } },
    );
    if (!commentCreate.success || !commentCreate.comment) throw new Error('Linear: commentCreate did not succeed.');
    return commentCreate.comment;
  },
});
