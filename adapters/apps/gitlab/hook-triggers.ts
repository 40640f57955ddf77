import { dropdown, text } from '../sdk/index.js';
import { projectHookTrigger } from './project-hook.js';

/** Automatisch's GitLab triggers: one project webhook event each, keyed by GitLab's name for it. */

export const issueEvent = projectHookTrigger({
  key: 'issues_events',
  name: 'Issue event',
  description: 'An issue is created, updated, closed or reopened.',
  header: 'Issue Hook',
});

export const confidentialIssueEvent = projectHookTrigger({
  key: 'confidential_issues_events',
  name: 'Confidential issue event',
  description: 'A confidential issue is created, updated, closed or reopened.',
  header: 'Confidential Issue Hook',
});

export const noteEvent = projectHookTrigger({
  key: 'note_events',
  name: 'Comment event',
  description: 'A comment is made on a commit, merge request, issue or snippet.',
  header: 'Note Hook',
});

export const confidentialNoteEvent = projectHookTrigger({
  key: 'confidential_note_events',
  name: 'Confidential comment event',
  description: 'A confidential comment is made.',
  header: 'Confidential Note Hook',
});

export const mergeRequestEvent = projectHookTrigger({
  key: 'merge_requests_events',
  name: 'Merge request event',
  description: 'A merge request is created, updated, merged or closed.',
  header: 'Merge Request Hook',
});

export const pushEvent = projectHookTrigger({
  key: 'push_events',
  name: 'Push event',
  description: 'Commits are pushed to the repository.',
  header: 'Push Hook',
  arguments: {
    branch_filter_strategy: dropdown({
      label: 'Branches',
      required: true,
      default: 'all_branches',
      options: [
        { label: 'All branches', value: 'all_branches' },
        { label: 'Wildcard pattern (ex: *-stable)', value: 'wildcard' },
        { label: 'Regular expression (ex: ^(feature|hotfix)/)', value: 'regex' },
      ],
    }),
    push_events_branch_filter: text({ label: 'Filter', description: 'Empty for all branches.' }),
  },
  hookSettings: (p) =>
    p.branch_filter_strategy === 'wildcard' || p.branch_filter_strategy === 'regex'
      ? { branch_filter_strategy: p.branch_filter_strategy, push_events_branch_filter: p.push_events_branch_filter }
      : {},
});

export const tagPushEvent = projectHookTrigger({
  key: 'tag_push_events',
  name: 'Tag event',
  description: 'A tag is created or deleted.',
  header: 'Tag Push Hook',
});

export const pipelineEvent = projectHookTrigger({
  key: 'pipeline_events',
  name: 'Pipeline event',
  description: "A pipeline's status changes.",
  header: 'Pipeline Hook',
});

export const jobEvent = projectHookTrigger({
  key: 'job_events',
  name: 'Job event',
  description: "A job's status changes.",
  header: 'Job Hook',
});

export const deploymentEvent = projectHookTrigger({
  key: 'deployment_events',
  name: 'Deployment event',
  description: 'A deployment starts, succeeds, fails or is canceled.',
  header: 'Deployment Hook',
});

export const featureFlagEvent = projectHookTrigger({
  key: 'feature_flag_events',
  name: 'Feature flag event',
  description: 'A feature flag is turned on or off.',
  header: 'Feature Flag Hook',
});

export const releaseEvent = projectHookTrigger({
  key: 'releases_events',
  name: 'Release event',
  description: 'A release is created, updated or deleted.',
  header: 'Release Hook',
});

export const wikiPageEvent = projectHookTrigger({
  key: 'wiki_page_events',
  name: 'Wiki page event',
  description: 'A wiki page is created, updated or deleted.',
  header: 'Wiki Page Hook',
});

/** In Automatisch's order. */
export const projectHookTriggers = [
  confidentialIssueEvent,
  confidentialNoteEvent,
  deploymentEvent,
  featureFlagEvent,
  issueEvent,
  jobEvent,
  mergeRequestEvent,
  noteEvent,
  pipelineEvent,
  pushEvent,
  releaseEvent,
  tagPushEvent,
  wikiPageEvent,
];
