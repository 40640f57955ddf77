/**
 * `npm run bench`, phase 5: the API's reads while webhooks keep arriving. BENCH_READERS clients
 * (default 4) read in a closed loop, each in turn `GET /flows` and `GET /executions` (the first page
 * of 10, newest first, over every run the earlier phases left), while webhooks arrive at
 * BENCH_READ_LOAD_RATE (default 200/s) for BENCH_SECONDS.
 */
import { percentile } from './bench-processes.js';

const READERS = Number(process.env.BENCH_READERS ?? 4);
export const READ_LOAD_RATE = Number(process.env.BENCH_READ_LOAD_RATE ?? 200);

const READS = { 'list flows': '/api/v1/flows', 'list executions': '/api/v1/executions?perPage=10' } as const;
type Read = keyof typeof READS;

export interface ReadFigures {
  readonly reads: ReadonlyArray<{ name: Read; count: number; p50: number; p99: number }>;
  readonly failed: number;
  readonly seconds: number;
}

/** Reads as fast as READERS clients go until `load` (the webhooks sent meanwhile) settles. */
export const readsUnderLoad = async <T>(base: string, token: string, load: () => Promise<T>) => {
  const latencies: Record<Read, number[]> = { 'list flows': [], 'list executions': [] };
  let failed = 0;
  let sending = true;
  const names = Object.keys(READS) as Read[];
  const startedAt = performance.now();
  const readers = Array.from({ length: READERS }, async (_, reader) => {
    for (let i = reader; sending; i++) {
      const name = names[i % names.length] as Read;
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}${READS[name]}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.ok) latencies[name].push(performance.now() - t0);
        else failed++;
      } catch {
        failed++;
      }
    }
  });
  const loaded = await load();
  sending = false;
  await Promise.all(readers);
  const figures: ReadFigures = {
    reads: names.map((name) => {
      const sorted = latencies[name].sort((a, b) => a - b);
      return { name, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    }),
    failed,
    seconds: (performance.now() - startedAt) / 1000,
  };
  return { figures, loaded };
};
