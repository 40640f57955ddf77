import type { FuzzRequest } from './routes.js';

/** How long any request may take before it counts as a hang. */
export const REQUEST_TIMEOUT_MS = 5000;

export type Outcome = { readonly status: number; readonly body?: string } | 'hang';

/** A request that broke the rules: a 5xx, a hang, or an error answer not in the documented shape. */
export interface Finding {
  readonly request: string;
  readonly problem: string;
}

/** Requests tried and what came back, by status class. */
export class Tally {
  readonly byClass: Record<string, number> = {};
  readonly byStatus: Record<string, number> = {};
  readonly findings: Finding[] = [];
  /** Requests by route (`METHOD template`), or by socket case. */
  readonly routesHit = new Map<string, number>();
  requests = 0;
  hangs = 0;
  serverErrors = 0;

  record(label: string, request: string, outcome: Outcome) {
    this.requests += 1;
    this.routesHit.set(label, (this.routesHit.get(label) ?? 0) + 1);
    if (outcome === 'hang') {
      this.hangs += 1;
      this.byClass.hang = (this.byClass.hang ?? 0) + 1;
      this.findings.push({ request, problem: `no answer within ${REQUEST_TIMEOUT_MS} ms` });
      return;
    }
    this.byStatus[outcome.status] = (this.byStatus[outcome.status] ?? 0) + 1;
    const statusClass = outcome.status === 0 ? 'closed' : `${Math.floor(outcome.status / 100)}xx`;
    this.byClass[statusClass] = (this.byClass[statusClass] ?? 0) + 1;
    if (outcome.status >= 500) {
      this.serverErrors += 1;
      this.findings.push({ request, problem: `${outcome.status} ${outcome.body?.slice(0, 300) ?? ''}` });
    }
  }

  problem(request: string, problem: string) {
    this.findings.push({ request, problem });
  }

  add(other: Tally) {
    this.requests += other.requests;
    this.hangs += other.hangs;
    this.serverErrors += other.serverErrors;
    for (const [key, count] of Object.entries(other.byClass)) this.byClass[key] = (this.byClass[key] ?? 0) + count;
    for (const [key, count] of Object.entries(other.byStatus)) this.byStatus[key] = (this.byStatus[key] ?? 0) + count;
    this.findings.push(...other.findings);
    for (const [route, count] of other.routesHit) this.routesHit.set(route, (this.routesHit.get(route) ?? 0) + count);
  }

  summary(label: string) {
    const classes = Object.entries(this.byClass)
      .sort()
      .map(([key, count]) => `${key}=${count}`)
      .join(' ');
    const statuses = Object.entries(this.byStatus)
      .map(([key, count]) => `${key}:${count}`)
      .join(' ');
    return `fuzz ${label}: ${this.requests} requests (${classes}; by status ${statuses}), 5xx seen: ${this.serverErrors}, hangs: ${this.hangs}, other findings: ${this.findings.length - this.serverErrors - this.hangs}`;
  }
}

/** Resolves with the outcome, or 'hang' once the time-out passes (the request itself cannot be stopped). */
export const withTimeout = async <T>(send: Promise<T>, ms = REQUEST_TIMEOUT_MS): Promise<T | 'hang'> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), ms);
  });
  try {
    return await Promise.race([send, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** A request as one line of a report: enough to replay it. */
export const describeRequest = (request: FuzzRequest) => {
  const body =
    request.body === undefined ? '' : ` body(${request.body.length})=${JSON.stringify(request.body.slice(0, 200))}`;
  const headers = JSON.stringify(request.headers).slice(0, 200);
  return `${request.method} ${request.path.slice(0, 300)} ${headers}${body}`;
};
