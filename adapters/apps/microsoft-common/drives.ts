import { type DraftContext, type DynamicOption, dynamicDropdown, HttpError, segment } from '../sdk/index.js';
import { graphPages } from './graph.js';

interface Drive {
  readonly id: string;
  readonly name?: string;
}

interface Site {
  readonly id: string;
  readonly displayName?: string;
  readonly name?: string;
}

/** The optional drive a step works in: the user's own OneDrive when none is chosen. */
export const driveArgument = (what: string) =>
  dynamicDropdown({
    label: 'Drive',
    description: `The OneDrive or SharePoint document library of the ${what}. Empty: your own OneDrive.`,
    dynamicData: 'listDrives',
  });

/** Where a drive's items are in Graph: `/drives/{id}`, or `/me/drive` for the user's own. */
export const driveRoot = (driveId: string | undefined): string =>
  driveId ? `/drives/${segment(driveId)}` : '/me/drive';

/** Text from a draft's parameter (dynamic data sees the step as entered so far, unvalidated). */
export const draftText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Personal Microsoft accounts have no SharePoint: Graph refuses their followed sites. */
const noSites = (error: unknown) => error instanceof HttpError && [400, 403, 404].includes(error.status);

/**
 * Dynamic data `listDrives`: "My OneDrive" (the empty choice), the user's other drives, and the
 * document libraries of the SharePoint sites they follow (the first 20 sites).
 */
export const listDrives = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const own = await graphPages<Drive>(ctx.http, { path: '/me/drives' });
  const sites = await graphPages<Site>(ctx.http, { path: '/me/followedSites' }, { maxItems: 20 }).catch(
    (error: unknown) => {
      if (noSites(error)) return [];
      throw error;
    },
  );
  const libraries: DynamicOption[] = [];
  for (const site of sites) {
    const drives = await graphPages<Drive>(ctx.http, { path: `/sites/${segment(site.id)}/drives` });
    const siteName = site.displayName ?? site.name ?? site.id;
    libraries.push(...drives.map((drive) => ({ name: `${siteName} / ${drive.name ?? drive.id}`, value: drive.id })));
  }
  return [
    { name: 'My OneDrive', value: '' },
    ...own.map((drive) => ({ name: drive.name ?? drive.id, value: drive.id })),
    ...libraries,
  ];
};
