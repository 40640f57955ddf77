/**
 * The app picker's categories, in the order its chips show them, with their labels. The keys are
 * the domain's (`APP_CATEGORIES` in core/domain/app.ts, which test/http/app-catalog.test.ts holds
 * this list to); the words are the console's own.
 */
export const APP_CATEGORY_LABELS = {
  communication: 'Communication',
  productivity: 'Productivity',
  'developer-tools': 'Developer tools',
  'sales-and-crm': 'Sales & CRM',
  marketing: 'Marketing',
  commerce: 'Commerce',
  support: 'Customer support',
  'forms-and-surveys': 'Forms & surveys',
  'files-and-documents': 'Files & documents',
  'data-and-databases': 'Data & databases',
  'messaging-and-queues': 'Messaging & queues',
  ai: 'AI',
  'flow-control': 'Flow control',
  utilities: 'Utilities',
} as const;

const labels: Readonly<Record<string, string>> = APP_CATEGORY_LABELS;

/** A category's label; a key this console does not know yet (a newer server) shows as it is. */
export const categoryLabel = (key: string): string => labels[key] ?? key;
