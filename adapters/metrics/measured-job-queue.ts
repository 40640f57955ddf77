import type { JobQueue } from '../../ports/job-queue.js';
import type { Metrics } from '../../ports/metrics.js';

/** The queue with every handler this process runs timed, by queue name and outcome. */
export const measuredJobQueue = (queue: JobQueue, metrics: Metrics): JobQueue => ({
  send: (request) => queue.send(request),
  schedule: (key, cron, timezone, request) => queue.schedule(key, cron, timezone, request),
  unschedule: (key) => queue.unschedule(key),
  work: (name, handler, options) =>
    queue.work(
      name,
      async (job) => {
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        try {
          await handler(job);
        } catch (error) {
          metrics.observeJob({ queue: name, outcome: 'failed', seconds: seconds() });
          throw error;
        }
        metrics.observeJob({ queue: name, outcome: 'completed', seconds: seconds() });
      },
      options,
    ),
  depth: () => queue.depth(),
  prepare: (names) => queue.prepare(names),
  stop: () => queue.stop(),
});
