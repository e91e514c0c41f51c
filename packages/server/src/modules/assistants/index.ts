/** Assistants and their settings rules (GraphQL in `assistants.schema.ts`). */
export { AssistantsService } from "./assistants.service.ts";
export { type ReplySettings, ReplySettingsCache, replySettingsColumns } from "./reply-settings.ts";
