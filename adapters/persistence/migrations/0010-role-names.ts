import { type Kysely, type Migration, type RawBuilder, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/** The roles the code finds by name (registration, installation): they keep theirs. */
const BUILT_IN = ['Admin', 'User'];

/**
 * Role names are unique whatever their case: "Operators" and "operators" would be two roles no
 * administrator could tell apart in a list. Postgres compares `lower(name)` (Unicode, by the
 * database's collation); SQLite compares with NOCASE (ASCII letters only).
 *
 * Roles that already clash keep their rows: the built-in role, else the oldest, keeps its name;
 * each other is renamed `<name> (2)`, `<name> (3)`, ..., the first such name that is free.
 */
export const roleNames: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    /** `a` and `b` (SQL expressions) are one name, as the index compares them. */
    const sameName = (a: RawBuilder<unknown>, b: RawBuilder<unknown>) =>
      t.postgres ? sql<boolean>`lower(${a}) = lower(${b})` : sql<boolean>`${a} = ${b} collate nocase`;
    const holder = async (name: string, among: readonly string[]) =>
      among.length === 0
        ? undefined
        : db
            .selectFrom('roles')
            .select('id')
            .where('id', 'in', among)
            .where(sameName(sql.ref('name'), sql.val(name)))
            .executeTakeFirst();

    const roles = (await db
      .selectFrom('roles')
      .select(['id', 'name'])
      .orderBy('created_at')
      .orderBy('id')
      .execute()) as { id: string; name: string }[];
    const byPriority = [
      ...roles.filter((role) => BUILT_IN.includes(role.name)),
      ...roles.filter((role) => !BUILT_IN.includes(role.name)),
    ];
    const all = roles.map((role) => role.id);
    const kept: string[] = [];
    for (const role of byPriority) {
      if (await holder(role.name, kept)) {
        let n = 2;
        while (await holder(`${role.name} (${n})`, all)) n++;
        await db
          .updateTable('roles')
          .set({ name: `${role.name} (${n})` })
          .where('id', '=', role.id)
          .execute();
      }
      kept.push(role.id);
    }

    const key = t.postgres ? sql`lower(name)` : sql`name collate nocase`;
    await sql`create unique index roles_name_case_insensitive_unique on roles (${key})`.execute(db);
  },
};
