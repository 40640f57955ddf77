import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import type { Logger } from '../../ports/logger.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Structured JSON lines on stdout, or on `destination` (the CLI keeps stdout for its output).
 * Headers that carry credentials are never written.
 */
export const createPinoLogger = (level: LogLevel, destination?: { write(line: string): unknown }): Logger => {
  const options: LoggerOptions = {
    level,
    base: { service: 'conveyor' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['*.authorization', '*.cookie', '*["x-api-token"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination as DestinationStream) : pino(options);
};
