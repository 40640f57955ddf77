/**
 * What one database handle sent since it opened: statements (on Postgres each is a round trip to
 * the server) and commits (on SQLite, group commits: one per batch of writes). Plain numbers bumped
 * on the hot path; `conveyor_database_statements_total` and `conveyor_database_commits_total`
 * read them at scrape time, and `npm run bench` divides them by the runs a phase completed.
 */
export interface StatementCounts {
  statements: number;
  commits: number;
}

export const newStatementCounts = (): StatementCounts => ({ statements: 0, commits: 0 });
