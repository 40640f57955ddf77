import type { TestInstance } from '../support/http.js';
import { actorFactory } from './actors.js';
import { appAdministrationFixtures } from './connection-fixtures.js';
import { templateFixtures } from './flow-resources.js';
import type { MatrixFixtures } from './route-case.js';
import { samlFixtures } from './saml-routes.js';

/** The actor factory and the shared resources every row may use, made once per instance. */
export const matrixFixtures = async (instance: TestInstance): Promise<MatrixFixtures> => {
  const actors = await actorFactory(instance);
  return {
    ...actors,
    ...(await appAdministrationFixtures(actors)),
    ...(await templateFixtures(actors)),
    ...(await samlFixtures(actors)),
  };
};
