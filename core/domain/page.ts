export interface PageRequest {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
}

export const totalPages = (page: Page<unknown>): number => Math.max(1, Math.ceil(page.total / page.perPage));
