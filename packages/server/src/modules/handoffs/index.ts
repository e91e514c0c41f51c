/**
 * Hand-offs (docs/transfers.md): transfer destinations of assistants (with the business hours that
 * offer them) and hand-offs in chat, to a person (request_human) or another assistant (handoff).
 */
export { describeLocal, isOpen, nextOpening, type WeeklySchedule } from "./business-hours.ts";
export { TRANSFER_CALL_TOOL_NAME } from "./call-functions.ts";
export { CallHandoffsService, type CallHandover, type LiveCallTurn } from "./call-handoffs.service.ts";
export { CallTransfersService, type TransferableCall } from "./call-transfers.service.ts";
export { HANDOFF_TOOL_NAME, REQUEST_HUMAN_TOOL_NAME } from "./chat-functions.ts";
export { ChatHandoffsService, MAX_HANDOFF_TARGETS } from "./chat-handoffs.service.ts";
export { HANDOFF_RECENT_WINDOW, MAX_HANDOFFS_PER_CONVERSATION } from "./handoff-rules.ts";
export {
  MAX_DESTINATIONS_PER_ASSISTANT,
  TransferDestinationsService,
} from "./transfer-destinations.service.ts";
