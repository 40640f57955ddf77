import { dropdown, dynamicDropdown, matches } from '../sdk/index.js';
import { numericId } from './api.js';

/** The records a step links to, chosen from Pipedrive's lists or given as numeric IDs. */
export const organizationId = dynamicDropdown({
  label: 'Organization',
  dynamicData: 'listOrganizations',
  acceptsVariables: true,
  check: numericId,
});
export const personId = dynamicDropdown({
  label: 'Person',
  dynamicData: 'listPersons',
  acceptsVariables: true,
  check: numericId,
});
export const dealId = dynamicDropdown({
  label: 'Deal',
  dynamicData: 'listDeals',
  acceptsVariables: true,
  check: numericId,
});
export const user = (label: string) =>
  dynamicDropdown({ label, dynamicData: 'listUsers', acceptsVariables: true, check: numericId });
export const userId = user('Owner');
export const currency = dynamicDropdown({ label: 'Currency', dynamicData: 'listCurrencies', acceptsVariables: true });

/** Automatisch's No/Yes dropdowns, 0 and 1. */
export const noYes = (label: string) =>
  dropdown({
    label,
    options: [
      { label: 'No', value: 0 },
      { label: 'Yes', value: 1 },
    ],
  });

export const decimal = matches(/^-?\d+(\.\d+)?$/, 'must be a number, e.g. 1500 or 12.5.');

/** `a, b` as a list; none when empty. */
export const listOf = (text: string | undefined) => {
  const items = (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
};
