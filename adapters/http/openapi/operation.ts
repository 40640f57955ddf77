import type * as v from 'valibot';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call: API.md's guards. `enterprise` and `permission` narrow it further. */
export type Access = 'public' | 'signed in' | 'admin';

/**
 * What the OpenAPI document says about one route. `body` and `query` are the very valibot schemas
 * the handler validates with, so the document cannot drift from what is enforced; path parameters
 * come from the path itself.
 */
export interface Operation {
  readonly method: HttpMethod;
  /** Hono's syntax (`/users/:userId`), under `/api/v1` unless `root`. */
  readonly path: string;
  readonly summary: string;
  readonly access: Access;
  readonly enterprise?: boolean;
  /** The role permission the route needs, as "action Subject" (e.g. `manage Flow`). */
  readonly permission?: string;
  readonly body?: v.GenericSchema;
  /** The body is a form post (`application/x-www-form-urlencoded`), not JSON. */
  readonly form?: boolean;
  readonly query?: v.GenericSchema;
  /** `?page=` and `?perPage=` (API.md §2). */
  readonly paged?: boolean;
  /** The success status; 204 has no body. */
  readonly status: number;
  /**
   * What `data` holds in the success envelope: one of `RESOURCE_SCHEMAS` (resources.schemas.ts), or
   * an array of one. Left out where the answer is described only in words (`returns`).
   */
  readonly answer?: v.GenericSchema;
  /** The `meta.type` of the success envelope, or what a `root` route answers. */
  readonly returns: string;
  /** Served outside `/api/v1` (webhooks, sign-in, GraphQL): its answer is not the envelope. */
  readonly root?: boolean;
}

export interface TaggedOperation extends Operation {
  readonly tag: string;
}

/** One group of the reference, in the order the routes are declared. */
export const tagged = (tag: string, operations: readonly Operation[]): readonly TaggedOperation[] =>
  operations.map((operation) => ({ ...operation, tag }));

/** The text of the guard, as docs/api.md writes it. */
export const guardOf = (operation: Operation): string =>
  [
    operation.permission ? `perm ${operation.permission}` : operation.access,
    ...(operation.enterprise ? ['EE'] : []),
  ].join(', ');
