/**
 * Hand-offs (docs/transfers.md): transfer destinations of assistants (with the business hours that
 * offer them) and hand-offs in chat, to a person (request_human) or another assistant (handoff).
 */
export { describeLocal, isOpen, nextOpening, type WeeklySchedule } from "./business-hours.ts";
export {
  ChatHandoffsService,
  HANDOFF_RECENT_WINDOW,
  HANDOFF_TOOL_NAME,
  MAX_HANDOFF_TARGETS,
  MAX_HANDOFFS_PER_CONVERSATION,
  REQUEST_HUMAN_TOOL_NAME,
} from "./chat-handoffs.service.ts";
export {
  MAX_DESTINATIONS_PER_ASSISTANT,
  TransferDestinationsService,
} from "./transfer-destinations.service.ts";
