import { boolean, defineAction, dropdown, text } from '../sdk/index.js';
import { mqttAuth, withClient } from './connection.js';
import { qosOptions } from './new-message.js';
import { topicNameProblem } from './topics.js';

export const publishMessage = defineAction({
  key: 'publishMessage',
  name: 'Publish message',
  description: 'Publishes a message on a topic; with QoS 1 or 2 it waits for the broker to confirm it.',
  arguments: {
    topic: text({ label: 'Topic', required: true, placeholder: 'devices/lamp/set', acceptsVariables: true }),
    message: text({ label: 'Message', required: true, acceptsVariables: true, description: 'Sent as UTF-8 text.' }),
    qos: dropdown({ label: 'QoS', default: 1, options: qosOptions }),
    retain: boolean({
      label: 'Retain',
      default: false,
      description: "The broker keeps it as the topic's last message and gives it to every new subscriber.",
    }),
  },
  async run(ctx) {
    const { topic, message, qos, retain } = ctx.parameters;
    const problem = topicNameProblem(topic);
    if (problem) throw new Error(`The topic ${problem}`);
    const packet = await withClient(ctx, mqttAuth.read(ctx.auth), (client) =>
      client.publishAsync(topic, message, { qos, retain }),
    );
    const messageId = packet && 'messageId' in packet ? packet.messageId : undefined;
    return { topic, qos, retain, ...(qos > 0 && messageId !== undefined && { messageId }) };
  },
});
