import { sql } from 'kysely';
import type { HealthProbe } from '../../ports/health.js';
import type { DatabaseHandle } from './open-database.js';

const PROBE_TIMEOUT_MS = 3000;

export const createHealthProbe = ({ db }: DatabaseHandle): HealthProbe => ({
  async databaseReachable() {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    const probe = sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  },
});
