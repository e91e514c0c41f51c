/** The voice catalogue (GraphQL in `voices.schema.ts`). */
export { VoicesService } from "./voices.service.ts";
