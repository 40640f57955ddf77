import { agents } from './agents/index.js';
import { airtable } from './airtable/index.js';
import { anthropic } from './anthropic/index.js';
import { asana } from './asana/index.js';
import { azureOpenai } from './azure-openai/index.js';
import { baserow } from './baserow/index.js';
import { bigquery, bigqueryServiceAccount } from './bigquery/index.js';
import { branches } from './branches/index.js';
import { clickup } from './clickup/index.js';
import { codeApp, createCodeApp } from './code/index.js';
import { datastore } from './datastore/index.js';
import { deepseek } from './deepseek/index.js';
import { delay } from './delay/index.js';
import { discord } from './discord/index.js';
import { filter } from './filter/index.js';
import { flows } from './flows/index.js';
import { formatter } from './formatter/index.js';
import { forms } from './forms/index.js';
import { github } from './github/index.js';
import { gitlab } from './gitlab/index.js';
import { gmail } from './gmail/index.js';
import { googleCalendar } from './google-calendar/index.js';
import { googleDocs } from './google-docs/index.js';
import { googleDrive } from './google-drive/index.js';
import { googleGemini } from './google-gemini/index.js';
import { googleSheets, googleSheetsServiceAccount } from './google-sheets/index.js';
import { groq } from './groq/index.js';
import { httpRequest } from './http-request/index.js';
import { hubspot } from './hubspot/index.js';
import { imap } from './imap/index.js';
import { intercom } from './intercom/index.js';
import { jira } from './jira/index.js';
import { linear } from './linear/index.js';
import { loop } from './loop/index.js';
import { mailchimp } from './mailchimp/index.js';
import { mattermost } from './mattermost/index.js';
import { mcp } from './mcp/index.js';
import { createMcpClientApp, mcpClient } from './mcp-client/index.js';
import { microsoftExcel } from './microsoft-excel/index.js';
import { microsoftOnedrive } from './microsoft-onedrive/index.js';
import { microsoftOutlook } from './microsoft-outlook/index.js';
import { microsoftTeams } from './microsoft-teams/index.js';
import { mistralAi } from './mistral-ai/index.js';
import { monday } from './monday/index.js';
import { mqtt } from './mqtt/index.js';
import { mysqlApp } from './mysql/index.js';
import { nats } from './nats/index.js';
import { notion } from './notion/index.js';
import { ollama } from './ollama/index.js';
import { openai } from './openai/index.js';
import { openrouter } from './openrouter/index.js';
import { perplexity } from './perplexity/index.js';
import { pipedrive } from './pipedrive/index.js';
import { postgresql } from './postgresql/index.js';
import { rabbitmq } from './rabbitmq/index.js';
import { redis } from './redis/index.js';
import { rss } from './rss/index.js';
import { salesforce } from './salesforce/index.js';
import { scheduler } from './scheduler/index.js';
import type { App } from './sdk/index.js';
import { selfHostedLlm } from './self-hosted-llm/index.js';
import { sendgrid } from './sendgrid/index.js';
import { shopify } from './shopify/index.js';
import { slack } from './slack/index.js';
import { smtp } from './smtp/index.js';
import { stripe } from './stripe/index.js';
import { supabase } from './supabase/index.js';
import { telegramBot } from './telegram-bot/index.js';
import { todoist } from './todoist/index.js';
import { togetherAi } from './together-ai/index.js';
import { trello } from './trello/index.js';
import { twilio } from './twilio/index.js';
import { typeform } from './typeform/index.js';
import { wait } from './wait/index.js';
import { webhook } from './webhook/index.js';
import { whatsapp } from './whatsapp/index.js';
import { woocommerce } from './woocommerce/index.js';
import { wordpress } from './wordpress/index.js';
import { youtube } from './youtube/index.js';
import { zendesk } from './zendesk/index.js';
import { zoom } from './zoom/index.js';

/** Every app this instance offers. A new integration is added here, and nowhere else. */
export const builtInApps: readonly App[] = [
  agents,
  airtable,
  anthropic,
  asana,
  azureOpenai,
  baserow,
  bigquery,
  bigqueryServiceAccount,
  branches,
  clickup,
  codeApp,
  datastore,
  deepseek,
  delay,
  discord,
  filter,
  flows,
  formatter,
  forms,
  github,
  gitlab,
  gmail,
  googleCalendar,
  googleDocs,
  googleDrive,
  googleGemini,
  googleSheets,
  googleSheetsServiceAccount,
  groq,
  httpRequest,
  hubspot,
  imap,
  intercom,
  jira,
  linear,
  loop,
  mailchimp,
  mattermost,
  mcpClient,
  mcp,
  microsoftExcel,
  microsoftOnedrive,
  microsoftOutlook,
  microsoftTeams,
  mistralAi,
  monday,
  mqtt,
  mysqlApp,
  nats,
  notion,
  ollama,
  openai,
  openrouter,
  pipedrive,
  perplexity,
  postgresql,
  rabbitmq,
  redis,
  rss,
  salesforce,
  scheduler,
  selfHostedLlm,
  sendgrid,
  shopify,
  slack,
  smtp,
  stripe,
  supabase,
  telegramBot,
  togetherAi,
  todoist,
  trello,
  twilio,
  typeform,
  wait,
  webhook,
  whatsapp,
  woocommerce,
  wordpress,
  youtube,
  zendesk,
  zoom,
];

export {
  type AppCatalogOptions,
  type ConnectionUse,
  createAppCatalog,
  type DraftRun,
  type InProcessAppCatalog,
  type StepRun,
} from './app-catalog.js';
export type { App } from './sdk/index.js';

/**
 * The built-in apps with this instance's settings: the code app's pool of worker threads sized,
 * and the MCP client allowed to run commands when the administrator allows it.
 */
export const builtInAppsWith = ({
  codeWorkers,
  codeWorkersPerFlow,
  mcpStdioAllowed,
}: {
  readonly codeWorkers?: number | null;
  readonly codeWorkersPerFlow?: number | null;
  readonly mcpStdioAllowed?: boolean;
}): readonly App[] =>
  builtInApps.map((app) => {
    if (app.key === codeApp.key && (codeWorkers || codeWorkersPerFlow))
      return createCodeApp(
        {},
        {
          ...(codeWorkers && { size: codeWorkers }),
          ...(codeWorkersPerFlow && { maxPerGroup: codeWorkersPerFlow }),
        },
      );
    if (app.key === mcpClient.key && mcpStdioAllowed) return createMcpClientApp({ stdioAllowed: true });
    return app;
  });
