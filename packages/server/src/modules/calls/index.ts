/** Calls and their status transitions (GraphQL in `calls.schema.ts`). */
export { CallsService } from "./calls.service.ts";
