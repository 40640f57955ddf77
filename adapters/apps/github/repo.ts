import { dynamicDropdown, matches, segment } from '../sdk/index.js';

const OWNER_AND_NAME = /^[\w.-]+\/[\w.-]+$/;

/** The `repo` argument of Automatisch's GitHub steps: `owner/name`, listed by `listRepos`. */
export const repoArgument = <const R extends boolean>(required: R, acceptsVariables = true) =>
  dynamicDropdown({
    label: 'Repository',
    required,
    dynamicData: 'listRepos',
    placeholder: 'owner/name',
    acceptsVariables,
    check: matches(OWNER_AND_NAME, 'must be owner/name.'),
  });

/** `/repos/<owner>/<name>`, each part encoded. */
export const repoPath = (repo: string): string => {
  const [owner = '', name = ''] = repo.split('/');
  return `/repos/${segment(owner)}/${segment(name)}`;
};

/** The repository a dynamic dropdown depends on, when the editor holds a complete one. */
export const draftRepo = (parameters: Readonly<Record<string, unknown>>): string | null =>
  typeof parameters.repo === 'string' && OWNER_AND_NAME.test(parameters.repo) ? parameters.repo : null;
