import type pg from 'pg';

/**
 * A notification's payload: a JSON object or array is handed on parsed, anything else as the text
 * it is (so `42` or `00123` stays text, and no large number loses digits); no payload is ''.
 */
export const parsePayload = (payload: string | undefined): unknown => {
  const text = payload ?? '';
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** What the newNotification trigger emits for one notification. */
export const notificationOutput = (notification: pg.Notification) => ({
  channel: notification.channel,
  payload: parsePayload(notification.payload),
  processId: notification.processId,
});

/** The client's application_name while it listens: how an administrator finds the session. */
export const listenerApplicationName = (channel: string) => `conveyor listen ${channel}`;
