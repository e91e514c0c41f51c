/** generate-reply for integrations (GraphQL types and fields in `replies.schema.ts`). */
export { RepliesService } from "./replies.service.ts";
