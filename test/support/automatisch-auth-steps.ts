/**
 * What Automatisch v0.15.0's web client does with `GET /apps/:appKey/auth`
 * (packages/web/src/hooks/useAuthenticateApp.ee.js and helpers/computeAuthStepVariables.js),
 * rewritten for tests: it runs the steps in order, filling each step's arguments from what the
 * earlier steps answered, so a test can see that the steps Conveyor describes really connect.
 */

interface StepArgument {
  readonly name: string;
  readonly value?: string;
  readonly properties?: readonly StepArgument[];
}

export interface AuthStep {
  readonly type: string;
  readonly name: string;
  readonly arguments: readonly StepArgument[];
}

type Data = Record<string, any>;

const lookUp = (data: Data, path: string): unknown =>
  path.split('.').reduce<any>((node, key) => (node === null || node === undefined ? undefined : node[key]), data);

/** `{x.all}` is the whole of `x`; any other value is a template whose `{a.b}` are looked up. */
export const stepVariables = (args: readonly StepArgument[], data: Data): Data => {
  const variables: Data = {};
  for (const argument of args) {
    if (argument.properties) {
      variables[argument.name] = stepVariables(argument.properties, data);
    } else if (argument.value?.endsWith('.all}')) {
      variables[argument.name] = data[argument.value.replace('{', '').replace('.all}', '')];
    } else if (argument.value) {
      variables[argument.name] = argument.value.replace(/{([\s\S]+?)}/g, (_all, path: string) =>
        String(lookUp(data, path.trim()) ?? ''),
      );
    }
  }
  return variables;
};

/** Sends one request and answers the envelope's `data`; throws on an error status, as axios does. */
export type Call = (method: string, path: string, body?: unknown) => Promise<any>;

export interface StartOfSteps {
  readonly key: string;
  readonly fields?: Data;
  readonly oauthClientId?: string;
  readonly connectionId?: string;
}

/**
 * Runs the steps as the client does: each mutation is its REST call, `openWithPopup` is handed to
 * `popup` (the provider's page, answering what it sends back). Answers everything gathered.
 */
export const runAuthSteps = async (
  steps: readonly AuthStep[],
  start: StartOfSteps,
  call: Call,
  popup: (url: string) => Promise<Data>,
): Promise<Data> => {
  const response: Data = { ...start };
  for (const step of steps) {
    const variables = stepVariables(step.arguments, response);
    if (step.type === 'openWithPopup') {
      response[step.name] = await popup(variables.url);
      continue;
    }
    if (step.type !== 'mutation') throw new Error(`a step of an unknown type: ${step.type}`);
    const id = response.connectionId;
    switch (step.name) {
      case 'createConnection': {
        const created = await call('POST', `/apps/${start.key}/connections`, {
          oauthClientId: variables.oauthClientId,
          formattedData: variables.formattedData,
        });
        response[step.name] = created;
        response.connectionId = created.id;
        break;
      }
      case 'generateAuthUrl':
        response[step.name] = await call('POST', `/connections/${id}/auth-url`);
        break;
      case 'updateConnection':
        response[step.name] = await call('PATCH', `/connections/${id}`, {
          formattedData: variables.formattedData,
          oauthClientId: variables.oauthClientId,
        });
        break;
      case 'resetConnection':
        response[step.name] = await call('POST', `/connections/${id}/reset`);
        break;
      case 'verifyConnection':
        response[step.name] = await call('POST', `/connections/${id}/verify`);
        break;
      default:
        throw new Error(`a mutation the client does not know: ${step.name}`);
    }
  }
  return response;
};
