import type { Logger } from '../../ports/logger.js';

export interface LogEntry {
  readonly level: string;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** Keeps every log entry instead of writing it, so a test can look for what must (never) be written. */
export class CapturingLogger implements Logger {
  readonly entries: LogEntry[] = [];
  debug(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'debug', fields, message });
  }
  info(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'info', fields, message });
  }
  warn(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'warn', fields, message });
  }
  error(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'error', fields, message });
  }
  /** Everything logged, as one string to search. */
  text(): string {
    return JSON.stringify(this.entries);
  }
}
