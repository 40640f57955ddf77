import { pino } from 'pino';
import type { Logger } from '../../ports/logger.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Structured JSON lines on stdout. Headers that carry credentials are never written. */
export const createPinoLogger = (level: LogLevel): Logger =>
  pino({
    level,
    base: { service: 'conveyor' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['*.authorization', '*.cookie', '*["x-api-token"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  });
