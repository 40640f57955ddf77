import * as v from 'valibot';
import { dropdown, dynamicDropdown, json, text } from '../sdk/index.js';

/** Zendesk's ids are integers; a dropdown or a variable gives them as text. */
export const asId = (value: string | undefined): number | string | undefined =>
  value === undefined ? undefined : /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/** Comma-separated tags, as Automatisch takes them. */
export const tagsOf = (tags: string | undefined) =>
  tags
    ?.split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/**
 * A list Automatisch keeps as rows of one field (`[{ collaborator: "12" }]`); a plain list or
 * comma-separated text is taken too. The value is the list of what was given, blank rows dropped.
 */
export const rowsOf = (label: string, field: string, description: string) =>
  json({
    label,
    description,
    acceptsVariables: true,
    schema: v.pipe(
      v.union(
        [v.string(), v.number(), v.array(v.union([v.string(), v.number(), v.record(v.string(), v.unknown())]))],
        'must be a list.',
      ),
      // JSON text such as `7` arrives parsed: one id.
      v.transform((value) =>
        (typeof value === 'string' ? value.split(',') : typeof value === 'number' ? [value] : value)
          .map((row) => (typeof row === 'object' ? row[field] : row))
          .flatMap((cell) => (typeof cell === 'string' || typeof cell === 'number' ? [String(cell).trim()] : []))
          .filter((cell) => cell !== ''),
      ),
    ),
  });

export const userArgument = (label: string, description?: string) =>
  dynamicDropdown({ label, dynamicData: 'listUsers', acceptsVariables: true, ...(description && { description }) });

export const groupArgument = () =>
  dynamicDropdown({
    label: 'Group',
    description: 'Allocate this ticket to a specific group.',
    dynamicData: 'listGroups',
    acceptsVariables: true,
  });

export const ticketArgument = (description: string) =>
  dynamicDropdown({
    label: 'Ticket',
    required: true,
    description,
    dynamicData: 'listFirstPageOfTickets',
    acceptsVariables: true,
  });

const options = (...values: readonly [string, string][]) => values.map(([label, value]) => ({ label, value }));

export const statusArgument = (label: string) =>
  dropdown({
    label,
    acceptsVariables: true,
    options: options(
      ['New', 'new'],
      ['Open', 'open'],
      ['Pending', 'pending'],
      ['Hold', 'hold'],
      ['Solved', 'solved'],
      ['Closed', 'closed'],
    ),
  });

export const typeArgument = () =>
  dropdown({
    label: 'Type',
    acceptsVariables: true,
    options: options(['Problem', 'problem'], ['Incident', 'incident'], ['Question', 'question'], ['Task', 'task']),
  });

export const priorityArgument = () =>
  dropdown({
    label: 'Priority',
    acceptsVariables: true,
    options: options(['Urgent', 'urgent'], ['High', 'high'], ['Normal', 'normal'], ['Low', 'low']),
  });

export const publicArgument = (label: string) =>
  dropdown({ label, acceptsVariables: true, options: options(['Yes', 'yes'], ['No', 'no']) });

export const tagsArgument = () =>
  text({ label: 'Tags', description: 'A comma separated list of tags.', acceptsVariables: true });
