/** Calls, their lifecycle (one transition table), carrier events, per-minute billing and limits. */
export type { Call } from "../../generated/prisma/client.ts";
export { type ApiCallStatus, CALL_TRANSITIONS, isFinal, toApiStatus } from "./call-status.ts";
export {
  type CallFinishedListener,
  CallsService,
  type EvaluationOutcome,
  FAREWELLS,
  type InboundVariablesSource,
  type OutboundCallRequest,
} from "./calls.service.ts";
