/** Accounts and their owners (GraphQL types and fields in `accounts.schema.ts`). */
export { AccountsService } from "./accounts.service.ts";
