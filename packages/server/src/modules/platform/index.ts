/** Platform administration by operators (GraphQL fields in `platform.schema.ts`). */
export { PlatformService } from "./platform.service.ts";
