/**
 * Calls the REST API of a Conveyor running as its own process, as a client would: the `data`
 * and `meta` of the answer, or an error naming the call and the answer.
 */
export const callApi = async (base: string, method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
};

export interface Account {
  readonly email: string;
  readonly password: string;
  readonly fullName: string;
}

/**
 * Installs with `admin` unless the instance already is installed, signs in, and makes a flow; its
 * trigger and first action are left for the caller to choose.
 */
export const newFlow = async (base: string, admin: Account) => {
  await callApi(base, 'POST', '/installation/users', undefined, admin).catch(() => {});
  const { token } = (await callApi(base, 'POST', '/access-tokens', undefined, admin)).data;
  const flow = (await callApi(base, 'POST', '/flows', token)).data;
  const [trigger, action] = flow.steps;
  return {
    token: token as string,
    flowId: flow.id as string,
    triggerId: trigger.id as string,
    actionId: action.id as string,
  };
};

/** `newFlow`, whose trigger catches webhooks. */
export const newWebhookFlow = async (base: string, admin: Account) => {
  const made = await newFlow(base, admin);
  await callApi(base, 'PATCH', `/steps/${made.triggerId}`, made.token, { appKey: 'webhook', key: 'catchRawWebhook' });
  return made;
};
