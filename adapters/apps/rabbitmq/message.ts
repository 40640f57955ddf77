import type { Message } from 'amqplib';
import { jsonOrText } from '../sdk/index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as text when they are UTF-8, else as base64. */
const bytesToText = (bytes: Uint8Array): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('base64');
  }
};

/**
 * A value amqplib decoded from a field table, made JSON-safe: byte arrays (Buffers) become text,
 * undefined entries are dropped, BigInts become numbers; the rest (numbers, text, booleans, null,
 * `{ '!': 'timestamp', value }`) is kept as it is.
 */
export const jsonSafe = (value: unknown): unknown => {
  if (value instanceof Uint8Array) return bytesToText(value);
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, entry]) => entry !== undefined)
        .map(([key, entry]) => [key, jsonSafe(entry)]),
    );
  return value;
};

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * The body as the flow reads it: JSON when it is (its content type says JSON, or it has none and
 * parses), else UTF-8 text. A body labelled as another type (text/plain) stays text.
 */
export const contentOf = (content: Buffer, contentType: unknown): unknown => {
  const body = content.toString('utf8');
  const labelled = typeof contentType === 'string' && contentType.trim() !== '';
  return !labelled || JSON_TYPE.test(contentType) ? jsonOrText(body) : body;
};

/** What a delivered (or got) message hands the flow: `{ content, properties, fields }`. */
export const messageOutput = (message: Message) => {
  const { deliveryTag, redelivered, exchange, routingKey, consumerTag } = message.fields;
  return {
    content: contentOf(message.content, message.properties.contentType),
    properties: jsonSafe(message.properties) as Record<string, unknown>,
    fields: { deliveryTag, redelivered, exchange, routingKey, ...(consumerTag !== undefined && { consumerTag }) },
  };
};

/** The listener message of a delivery: its messageId is its id across redeliveries. */
export const listenerMessage = (message: Message) => {
  const { messageId } = message.properties;
  const id = messageId === undefined || messageId === null || messageId === '' ? undefined : String(messageId);
  return {
    ...(id !== undefined && { id }),
    redelivered: message.fields.redelivered,
    data: messageOutput(message),
  };
};
