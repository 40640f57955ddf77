import mysql from 'mysql2/promise';

/**
 * The machine's test MariaDB (README, "Testing"; `serviceAvailable('mariadb')`): root over TCP on
 * loopback with no password, database `test`. The fields are the mysql app's connection fields.
 */
export const localMariaDb = {
  host: '127.0.0.1',
  port: 3306,
  user: 'root',
  password: '',
  database: 'test',
} as const;

/** The mysql app's connection to the test MariaDB, as `runAction` and `runTrigger` take it. */
export const localMariaDbConnection = { credentials: { ...localMariaDb, ssl: false }, oauth: null } as const;

/** Runs `work` on an administrator's connection to the test MariaDB, closed after. */
export const withMariaDb = async <T>(work: (connection: mysql.Connection) => Promise<T>): Promise<T> => {
  const connection = await mysql.createConnection({ ...localMariaDb, dateStrings: true, supportBigNumbers: true });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
};
