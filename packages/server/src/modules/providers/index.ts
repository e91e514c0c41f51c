/** The catalogue of speech providers and models, and accounts' own provider keys (GraphQL in `providers.schema.ts`). */
import type { ServiceDeps } from "../../deps.ts";
import { SecretBox } from "../../secret-box.ts";
import { ProviderKeysService } from "./provider-keys.service.ts";
import { ProvidersService } from "./providers.service.ts";

export { ProviderKeysService } from "./provider-keys.service.ts";
export { ProvidersService } from "./providers.service.ts";

export function createProviders(deps: ServiceDeps) {
  const providerKeys = new ProviderKeysService(deps, { secrets: new SecretBox(deps.config, deps.logger) });
  return { providerKeys, providers: new ProvidersService(deps, { keys: providerKeys }) };
}
