import type { ExportDocument } from './export-document.js';

/** A flow an administrator offers users to start from, kept as an export document. */
export interface Template {
  readonly id: string;
  readonly name: string;
  readonly flowData: ExportDocument;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
