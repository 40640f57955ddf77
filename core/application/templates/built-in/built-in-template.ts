import type { ExportDocument } from '../../../domain/export-document.js';

/**
 * A template shipped with Conveyor, offered to every user on every instance (no licence needed):
 * an export document under a stable key, with a line saying what the flow does.
 */
export interface BuiltInTemplate {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly flowData: ExportDocument;
}
