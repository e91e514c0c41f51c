/** The owner's view of conversations (GraphQL types and fields in the `*.schema.ts` files beside). */
export { ConversationsService, type OperatorTexting } from "./conversations.service.ts";
