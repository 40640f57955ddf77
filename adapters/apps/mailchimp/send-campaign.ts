import { dynamicDropdown, restAction, segment } from '../sdk/index.js';

export const sendCampaign = restAction({
  key: 'sendCampaign',
  name: 'Send campaign',
  description: 'Sends a campaign draft now.',
  arguments: {
    campaignId: dynamicDropdown({
      label: 'Campaign',
      required: true,
      dynamicData: 'listCampaigns',
      acceptsVariables: true,
    }),
  },
  request: (p) => ({ method: 'POST', path: `/campaigns/${segment(p.campaignId)}/actions/send` }),
  output: (_data, p) => ({ campaignId: p.campaignId, output: 'sent' }),
});
