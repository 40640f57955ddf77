import type { ActorFactory, TestActor } from './actors.js';
import { owner } from './flow-resources.js';
import { type ForeignCase, type MatrixFixtures, permitted, type RouteCase, unique } from './route-case.js';

const FIELDS = [{ name: 'Email', key: 'email', type: 'string', required: true, validationFormat: 'email' }] as const;

/** A form of the caller (or, for callers who cannot make one, the administrator's). */
export const formFor = async (fx: ActorFactory, actor: TestActor | null): Promise<string> => {
  const made = await fx.useCases.createForm(await owner(fx, actor), { name: `Form ${unique()}`, fields: [...FIELDS] });
  if (!made.ok) throw new Error(`could not create a form: ${made.error.code}`);
  return made.value.id;
};

const formPath = async (fx: MatrixFixtures, actor: TestActor | null) => `/forms/${await formFor(fx, actor)}`;

/** Forms are personal, as folders are: no role reaches into another user's. */
const foreign: ForeignCase = { path: (fx) => formPath(fx, null), status: 404, readAllManageOwn: 404, manageAll: 404 };

/** Every route of forms (Automatisch's `/forms`). */
export const FORM_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/forms', path: () => '/forms', expect: permitted(200) },
  {
    method: 'POST',
    route: '/forms',
    path: () => '/forms',
    body: () => ({ name: `Form ${unique()}`, responseMessage: 'Thanks', fields: FIELDS }),
    expect: permitted(201),
  },
  { method: 'GET', route: '/forms/:formId', path: formPath, expect: permitted(200), foreign },
  {
    method: 'PATCH',
    route: '/forms/:formId',
    path: formPath,
    body: () => ({ name: `Renamed ${unique()}` }),
    expect: permitted(200),
    foreign,
  },
  { method: 'DELETE', route: '/forms/:formId', path: formPath, expect: permitted(204), foreign },
];
