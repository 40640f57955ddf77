import { dynamicDropdown, text } from '../sdk/index.js';

export const contactArgument = () =>
  dynamicDropdown({
    label: 'Contact',
    required: true,
    description: 'The contact (user or lead) id.',
    dynamicData: 'listContacts',
    acceptsVariables: true,
  });

export const adminArgument = (description: string) =>
  dynamicDropdown({ label: 'Admin', required: true, description, dynamicData: 'listAdmins', acceptsVariables: true });

export const conversationArgument = () => text({ label: 'Conversation id', required: true, acceptsVariables: true });
