import { type ArgumentMap, type FieldsAuthDefinition, fieldsAuth, text, type Verified } from '../sdk/index.js';
import type { ModelContext } from './openai-compatible.js';

export interface ApiKeyAuthOptions<F extends ArgumentMap> {
  /** Fields between the screen name and the key (Azure's resource and deployment, a server's URL). */
  readonly fields?: F;
  /** A local server may need no key. */
  readonly apiKeyRequired?: boolean;
  readonly apiKeyDescription?: string;
  /** Asks the vendor whether the key works (`OpenAiCompatible.verify` lists the models). */
  verify(ctx: ModelContext): Promise<Verified>;
}

/**
 * Automatisch's connection of a model app: `screenName` (how the connection is shown: an API key
 * names no account), the app's own fields, and `apiKey`, secret.
 */
export const apiKeyAuth = <const F extends ArgumentMap = Record<never, never>>(options: ApiKeyAuthOptions<F>) => {
  const fields = {
    screenName: text({ label: 'Screen name', required: true, description: 'How this connection is shown.' }),
    ...(options.fields as F),
    apiKey: text({
      label: 'API key',
      required: options.apiKeyRequired ?? true,
      secret: true,
      ...(options.apiKeyDescription && { description: options.apiKeyDescription }),
    }),
  };
  return fieldsAuth({ fields, verify: (ctx) => options.verify(ctx) }) as FieldsAuthDefinition<typeof fields>;
};
