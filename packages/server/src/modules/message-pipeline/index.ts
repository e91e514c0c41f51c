/**
 * The message pipeline: how a message enters a conversation (charge, reply, storage, events).
 * Used by the owner's conversations, the public widget and generate-reply.
 */

export {
  answeringAssistantId,
  CONVERSATION_COLUMNS,
  type ConversationWithAssistant,
  RECENT_HISTORY_COLUMN,
  replyAssistantColumns,
  storedFunctionCalls,
} from "./conversation-reads.ts";
export {
  END_CALL_TOOL_NAME,
  type FunctionSet,
  type LiveCallFunctions,
  type RealtimeFunction,
  refused,
  runBuiltin,
  SEND_DTMF_TOOL_NAME,
} from "./function-sets.ts";
export { messageText, variablesInput, WIDGET_MESSAGE_MAX } from "./message-input.ts";
export { type ConversationTurn, type MessageOutcome, MessagePipeline } from "./message-pipeline.service.ts";
export { MessageStore } from "./message-store.ts";
export { historyWindow, primitiveVariables, type Variables } from "./prompt.ts";
export { ReplyEngine } from "./reply-engine.ts";
export { FALLBACK_NOTICE } from "./reply-knowledge.ts";
export { type ChatModelCatalogue, type ReplyRequest, simulatedCustomer } from "./reply-types.ts";
export {
  type FunctionCallRecord,
  KNOWLEDGE_TOOL_NAME,
  parseWebhookTools,
  publicFunctionCall,
} from "./tools.ts";
export { NO_VISITOR, summariseUserAgent, type VisitorDetails, visitorDetails } from "./visitor.ts";
