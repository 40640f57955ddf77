import type { Repositories } from '../../ports/repositories.js';
import type { Step } from '../domain/flow.js';
import { stepsOfVersion } from '../domain/flow-version.js';

/** How many versions' steps one instance keeps: the versions in use at once, with room to spare. */
const CAPACITY = 512;

/**
 * A flow version's steps, as runs and triggers take them; null when there is no such version.
 * Versions never change, so each is read from the database once per instance and kept (the least
 * recently used leave first): a run on a version reads no steps when it is claimed.
 */
export type VersionSteps = (versionId: string) => Promise<readonly Step[] | null>;

/** One memory per set of repositories (an instance's), however many parts of the engine ask. */
const memories = new WeakMap<object, VersionSteps>();

export const versionStepsOf = (repos: Pick<Repositories, 'flowVersions'>): VersionSteps => {
  const known = memories.get(repos);
  if (known) return known;
  const made = rememberVersions(repos);
  memories.set(repos, made);
  return made;
};

const rememberVersions = (repos: Pick<Repositories, 'flowVersions'>): VersionSteps => {
  const kept = new Map<string, Promise<readonly Step[] | null>>();
  return (versionId) => {
    const found = kept.get(versionId);
    if (found) {
      kept.delete(versionId);
      kept.set(versionId, found);
      return found;
    }
    const reading = repos.flowVersions.findById(versionId).then((version) => {
      // A version not found is not remembered: it may be being written.
      if (!version) kept.delete(versionId);
      return version ? stepsOfVersion(version) : null;
    });
    reading.catch(() => kept.delete(versionId));
    kept.set(versionId, reading);
    if (kept.size > CAPACITY) kept.delete(kept.keys().next().value as string);
    return reading;
  };
};

/** The steps a run walks: its version's, or (a test run) its flow's draft as it is now. */
export const stepsOfRun = async (
  repos: Pick<Repositories, 'flowVersions' | 'steps'>,
  run: { readonly flowId: string; readonly flowVersion: { readonly id: string } | null },
): Promise<readonly Step[]> =>
  run.flowVersion ? ((await versionStepsOf(repos)(run.flowVersion.id)) ?? []) : repos.steps.listByFlow(run.flowId);
