export { CapturingLogger, type LogEntry } from '../../adapters/logging/capturing-logger.js';
