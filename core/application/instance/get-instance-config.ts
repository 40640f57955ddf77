import type { InstanceConfig } from '../../domain/instance.js';
import type { CoreDeps } from '../deps.js';

/** Public: the sign-in page needs the title, colours and logo before anyone signs in. */
export const makeGetInstanceConfig =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  (): Promise<InstanceConfig> =>
    repos.config.get();
