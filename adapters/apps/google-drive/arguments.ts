import { driveArgument } from '../google-common/index.js';
import { dynamicDropdown } from '../sdk/index.js';

export const drive = driveArgument('file');

/** A folder of the chosen drive; Automatisch's `folderId`, whose description says what empty means. */
export const folder = (description: string) =>
  dynamicDropdown({
    label: 'Folder',
    description,
    acceptsVariables: true,
    dynamicData: 'listFolders',
    dependsOn: ['driveId'],
  });

/**
 * The folder files go in or are watched in: the one chosen, else the top of the drive (a shared
 * drive's id is its top folder's; `root` is My Drive's).
 */
export const parentOf = (p: { readonly folderId?: string | undefined; readonly driveId?: string | undefined }) =>
  p.folderId || p.driveId || 'root';
