/**
 * `npm run bench`'s webhook senders: one call and its outcome, and an open loop at a fixed rate.
 * Every call not acknowledged is counted by reason (`HTTP 503`, `UND_ERR_SOCKET`, `ECONNRESET`, ...).
 */
import { Agent, request } from 'undici';
import { percentile, sleep } from './bench-processes.js';

/**
 * The senders' connections, BENCH_CONNECTIONS at most (0: as many as the calls in flight). Without a
 * bound, every call that waits opens another connection, and under overload the client's SYNs
 * overflow the server's accept queue: the kernel drops them and the sender retries after 1, 3, 7 s.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 0);
const dispatcher = new Agent(CONNECTIONS > 0 ? { connections: CONNECTIONS } : {});

let sent = 0;
/** Webhook calls acknowledged so far (any 2xx), over every phase. */
export const acknowledged = () => sent;

/** Webhook calls not acknowledged (refused connection, reset, an answer other than 2xx), by reason. */
const failures = new Map<string, number>();

/** The failures counted since the returned function was made, by reason. */
export const failuresSince = () => {
  const before = new Map(failures);
  return () =>
    new Map(
      [...failures]
        .map(([reason, count]) => [reason, count - (before.get(reason) ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
};

export const describeFailures = (counted: ReadonlyMap<string, number>) =>
  [...counted].map(([reason, count]) => `${count} × ${reason}`).join(', ') || 'none';

/**
 * One webhook call: its ack latency, or null when it was not acknowledged (counted in `failures`).
 * With undici's `request` rather than `fetch`, whose Web API layers cost about eight times the CPU
 * per call: at thousands of calls a second `fetch` took a core of the two the server shares.
 */
export const hook = async (url: string): Promise<number | null> => {
  const n = sent++;
  const t0 = performance.now();
  try {
    const res = await request(url, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `customer ${n}`, n }),
    });
    await res.body.dump();
    // Conveyor answers 204; another product compared with it (bench-compare.ts) may answer 200.
    if (res.statusCode >= 200 && res.statusCode < 300) return performance.now() - t0;
    failures.set(`HTTP ${res.statusCode}`, (failures.get(`HTTP ${res.statusCode}`) ?? 0) + 1);
  } catch (error) {
    const { code, cause } = error as { code?: string; cause?: { code?: string } };
    const reason = String(code ?? cause?.code ?? error);
    failures.set(reason, (failures.get(reason) ?? 0) + 1);
  }
  sent--;
  return null;
};

/** An acknowledged call: when it was sent (ms after the loop started) and how long its ack took. */
export interface Ack {
  readonly sentAt: number;
  readonly ms: number;
}

/**
 * Open loop at a fixed rate: the ack latency a caller sees at that load, whatever the answers.
 * `whenSent` runs as soon as the last call is made, before its answers arrive.
 */
export const openLoop = async (url: string, rate: number, seconds: number, whenSent?: () => Promise<void>) => {
  const acks: Ack[] = [];
  const pending: Promise<void>[] = [];
  const startedAt = performance.now();
  const total = rate * seconds;
  for (let i = 0; i < total; i++) {
    const due = startedAt + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = performance.now() - startedAt;
    pending.push(
      hook(url).then((ms) => {
        if (ms !== null) acks.push({ sentAt, ms });
      }),
    );
  }
  const sendSeconds = (performance.now() - startedAt) / 1000;
  await Promise.all([...pending, whenSent?.()]);
  const latencies = acks.map((ack) => ack.ms).sort((a, b) => a - b);
  return {
    acks,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    /** Calls made, acknowledged or not. */
    offered: total,
    /** How long sending took (the client may fall behind its rate on a busy machine). */
    sendSeconds,
    /** Until the last answer. */
    seconds: (performance.now() - startedAt) / 1000,
  };
};
