const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every webhook the suite sent, by its unique id, and those the server acknowledged (2xx). */
export interface Ledger {
  sent: number;
  /** Calls without an answer: the server died or was restarting. */
  unanswered: number;
  readonly acknowledged: Set<string>;
  /** Answers other than 2xx, by status: 503 while the database is away. */
  readonly statuses: Map<number, number>;
}

export const newLedger = (): Ledger => ({ sent: 0, unanswered: 0, acknowledged: new Set(), statuses: new Map() });

/**
 * Sends webhooks, each with a unique `id` in its body, from `concurrency` senders until
 * `durationMs` has passed. A call the process's death cut short is not acknowledged: it may run
 * or not; an acknowledged one must run exactly once.
 */
export const sendBurst = async (options: {
  readonly url: () => string;
  readonly prefix: string;
  readonly durationMs: number;
  readonly concurrency: number;
  readonly ledger: Ledger;
}) => {
  const { ledger } = options;
  const deadline = Date.now() + options.durationMs;
  const sender = async () => {
    while (Date.now() < deadline) {
      const id = `${options.prefix}-${ledger.sent++}`;
      try {
        const res = await fetch(options.url(), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id }),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        if (res.ok) ledger.acknowledged.add(id);
        else ledger.statuses.set(res.status, (ledger.statuses.get(res.status) ?? 0) + 1);
      } catch {
        // Refused or reset: the server is dead or restarting. Not acknowledged.
        ledger.unanswered++;
        await sleep(20);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, sender));
};
