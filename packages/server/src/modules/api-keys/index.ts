/** API keys of an account (GraphQL in `api-keys.schema.ts`). */
export { ApiKeysService } from "./api-keys.service.ts";
