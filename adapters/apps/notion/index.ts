import { defineApp } from '../sdk/index.js';
import { notionAuth } from './auth.js';
import { notionDynamicData } from './dynamic-data.js';
import { icon } from './icon.js';
import { createDatabaseItem, createPage, findDatabaseItem } from './page-actions.js';
import { newDatabaseItems, updatedDatabaseItems } from './triggers.js';
import { listDatabaseProperties, updateDatabaseItem } from './update-database-item.js';

export const notion = defineApp({
  key: 'notion',
  name: 'Notion',
  description: 'Create, find and update pages and database items, and start flows from new and edited items in Notion.',
  icon,
  primaryColor: '#191919',
  categories: ['productivity', 'files-and-documents'],
  version: 1,
  auth: notionAuth,
  triggers: [newDatabaseItems, updatedDatabaseItems],
  actions: [createDatabaseItem, createPage, findDatabaseItem, updateDatabaseItem],
  dynamicData: notionDynamicData,
  dynamicFields: { listDatabaseProperties },
  // Databases are queried as this version defines them (one data source each).
  http: { baseUrl: 'https://api.notion.com/v1', headers: { 'notion-version': '2022-06-28' } },
});
