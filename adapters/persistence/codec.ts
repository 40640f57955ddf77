export type DialectName = 'sqlite' | 'postgres';

/**
 * The only dialect-specific value conversions. Row mappers go through these, so no repository
 * needs to know which database it is talking to.
 */
export interface Codec {
  readonly dialect: DialectName;
  bool(value: boolean): boolean | number;
  readBool(value: boolean | number): boolean;
  json(value: unknown): string;
  readJson<T>(value: unknown): T;
  timestamp(value: Date): string;
  readTimestamp(value: Date | string): Date;
  readInt(value: string | number | bigint): number;
}

const common = {
  readBool: (value: boolean | number) => Boolean(value),
  json: (value: unknown) => JSON.stringify(value),
  timestamp: (value: Date) => value.toISOString(),
  readTimestamp: (value: Date | string) => (value instanceof Date ? value : new Date(value)),
  readInt: (value: string | number | bigint) => Number(value),
};

export const sqliteCodec: Codec = {
  ...common,
  dialect: 'sqlite',
  // better-sqlite3 cannot bind booleans.
  bool: (value) => (value ? 1 : 0),
  readJson: <T>(value: unknown) => JSON.parse(value as string) as T,
};

export const postgresCodec: Codec = {
  ...common,
  dialect: 'postgres',
  bool: (value) => value,
  // pg parses jsonb itself.
  readJson: <T>(value: unknown) => value as T,
};
