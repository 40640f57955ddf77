import { draftText, driveArgument, driveRoot, graphPages } from '../microsoft-common/index.js';
import { type DraftContext, type DynamicOption, dynamicDropdown, segment } from '../sdk/index.js';

export const driveId = driveArgument('files');

export const folderId = dynamicDropdown({
  label: 'Folder',
  description: 'Empty: the top of the drive.',
  dynamicData: 'listFolders',
  dependsOn: ['driveId'],
});

/** A folder of a drive in Graph's paths: its item, or the drive's root. */
export const folderPath = (drive: string | undefined, folder: string | undefined) =>
  `${driveRoot(drive)}/${folder ? `items/${segment(folder)}` : 'root'}`;

interface Item {
  readonly id: string;
  readonly name?: string;
  readonly folder?: { readonly childCount?: number };
}

/** Folders opened to find subfolders: one request (or more, for big ones) each. */
const OPENED_FOLDERS = 25;

/**
 * Dynamic data `listFolders`: the drive's folders, breadth first ("Parent/Child"), the top level
 * first and as deep as 25 folders opened allow; every page of each.
 */
export const listFolders = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const drive = draftText(ctx.parameters.driveId);
  const options: DynamicOption[] = [];
  const queue: { readonly path: string; readonly name: string }[] = [{ path: folderPath(drive, undefined), name: '' }];
  for (let opened = 0; opened < OPENED_FOLDERS && queue.length > 0; opened++) {
    const parent = queue.shift() as { readonly path: string; readonly name: string };
    const children = await graphPages<Item>(ctx.http, {
      path: `${parent.path}/children`,
      query: { $select: 'id,name,folder', $top: 200 },
    });
    for (const child of children) {
      if (!child.folder) continue;
      const name = `${parent.name}${child.name ?? child.id}`;
      options.push({ name, value: child.id });
      if ((child.folder.childCount ?? 0) > 0) queue.push({ path: folderPath(drive, child.id), name: `${name}/` });
    }
  }
  return options;
};
