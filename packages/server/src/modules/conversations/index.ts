/** The owner's view of conversations (GraphQL types and fields in `conversations.schema.ts`). */
export { ConversationsService } from "./conversations.service.ts";
