export type {
  AssistantProfile,
  AssistantReply,
  ConversationHistory,
  FunctionCallOutcome,
  HistoryMessage,
  MessageRole,
  StartedWebCall,
  WidgetErrorKind,
  WidgetPosition,
  WidgetSettings,
  WidgetTheme,
} from "./api-client.ts";
export { WidgetApi, WidgetApiError } from "./api-client.ts";
export type {
  VoxgateCallEndDetail,
  VoxgateCallStartDetail,
  VoxgateErrorDetail,
  VoxgateEventMap,
  VoxgateMessageReceivedDetail,
  VoxgateMessageSentDetail,
  VoxgateToggleDetail,
} from "./events.ts";
export { defaultStrings, type VoxgateChatStrings } from "./strings.ts";
export { MAX_MESSAGE_LENGTH } from "./voxgate-chat.component.ts";
export { VoxgateChat } from "./voxgate-chat.ts";
