import { hostname } from 'node:os';
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import type { Logger } from '../../ports/logger.js';
import { createLogDestination } from './log-destination.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Structured JSON lines on stdout, or on `destination` (the CLI keeps stdout for its output).
 * Every line names the process that wrote it: its `role` (`server`, `worker`), host and pid, so
 * that the lines of several processes can be told apart once collected in one place.
 * Headers that carry credentials are never written. Writing to stdout never blocks the process:
 * a line that cannot be written (a full disk under the log file) is dropped, and the count of
 * dropped lines is logged once writing works again.
 */
export const createPinoLogger = (
  level: LogLevel,
  destination?: { write(line: string): unknown },
  role?: 'server' | 'worker',
): Logger => {
  const options: LoggerOptions = {
    level,
    base: { service: 'conveyor', ...(role && { role }), hostname: hostname(), pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['*.authorization', '*.cookie', '*["x-api-token"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination as DestinationStream);
  const logger = pino(
    options,
    createLogDestination({
      onRecovered: (dropped, reason) =>
        logger.warn({ dropped, reason }, `${dropped} log lines were dropped: the log output could not be written`),
    }),
  );
  return logger;
};
