/** The owner's view of conversations (GraphQL types and fields in `conversations.schema.ts`). */
export { ConversationsService, type OperatorTexting } from "./conversations.service.ts";
