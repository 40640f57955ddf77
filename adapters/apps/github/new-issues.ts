import { defineTrigger, dropdown, dynamicDropdown, type TriggerContext } from '../sdk/index.js';
import { repoArgument, repoPath } from './repo.js';

interface Issue {
  readonly id: number;
  readonly pull_request?: unknown;
  readonly repository?: { readonly full_name?: string };
}

type IssueType = 'all' | 'assigned' | 'created' | 'mentioned' | 'subscribed';

/** In one repository, "assigned to / created by / mentioning me" are filters on the account's login. */
const REPO_FILTER: Readonly<Record<Exclude<IssueType, 'all' | 'subscribed'>, string>> = {
  assigned: 'assignee',
  created: 'creator',
  mentioned: 'mentioned',
};

const NEWEST_FIRST = { state: 'all', sort: 'created', direction: 'desc', per_page: 100 } as const;

const fetchIssues = async (
  ctx: TriggerContext<{ repo?: string; issueType: IssueType; label?: string }>,
): Promise<readonly Issue[]> => {
  const { repo, issueType, label } = ctx.parameters;
  const query = { ...NEWEST_FIRST, labels: label };
  // Subscriptions can only be asked of the account's issues, across its repositories.
  if (!repo || issueType === 'subscribed') {
    const { data } = await ctx.http.request<Issue[]>({ path: '/issues', query: { ...query, filter: issueType } });
    return repo ? data.filter((issue) => issue.repository?.full_name?.toLowerCase() === repo.toLowerCase()) : data;
  }
  let mine = {};
  if (issueType !== 'all') {
    const { data: user } = await ctx.http.request<{ login: string }>({ path: '/user' });
    mine = { [REPO_FILTER[issueType]]: user.login };
  }
  const { data } = await ctx.http.request<Issue[]>({ path: `${repoPath(repo)}/issues`, query: { ...query, ...mine } });
  return data;
};

export const newIssues = defineTrigger({
  key: 'newIssues',
  name: 'New issues',
  description: 'Starts the flow for each issue opened (in a repository, or any the account can see).',
  type: 'polling',
  arguments: {
    repo: repoArgument(false, false),
    issueType: dropdown({
      label: 'Which issues',
      required: true,
      default: 'all',
      options: [
        { label: 'Any issue you can see', value: 'all' },
        { label: 'Only issues assigned to you', value: 'assigned' },
        { label: 'Only issues created by you', value: 'created' },
        { label: "Only issues you're mentioned in", value: 'mentioned' },
        { label: "Only issues you're subscribed to", value: 'subscribed' },
      ],
    }),
    label: dynamicDropdown({
      label: 'Label',
      description: 'Only issues with this label.',
      dynamicData: 'listLabels',
      dependsOn: ['repo'],
    }),
  },
  async run(ctx) {
    const issues = await fetchIssues(ctx);
    // GitHub's issue lists hold pull requests too; they have a trigger of their own.
    return issues.filter((issue) => !issue.pull_request).map((issue) => ({ id: String(issue.id), data: issue }));
  },
});
