import type { ServiceDeps } from "../../deps.ts";
import type { EventSink } from "../../events.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { BillingService } from "../billing/index.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { CallCarrier, CallDesk, InboundSimulator, TestCallCarrier } from "../telephony/provider.ts";
import { CallAnnotations } from "./call-annotations.ts";
import { CallHangUps } from "./call-hang-up.ts";
import { CallLifecycle } from "./call-lifecycle.service.ts";
import { CallMinutes } from "./call-minutes.ts";
import { CallQueries } from "./call-queries.ts";
import { CallStarts } from "./call-starts.ts";
import { CallTransferRecords } from "./call-transfers.ts";
import { CarrierEvents, type VoicemailSessions } from "./carrier-events.ts";
import { InboundCalls, type InboundVariablesSource } from "./inbound-calls.ts";
import { TestCalls } from "./test-calls.ts";

/** Calls, their lifecycle (one transition table), carrier events, per-minute billing and limits. */
export type { Call } from "../../generated/prisma/client.ts";
export type { CallAnnotations, EvaluationOutcome } from "./call-annotations.ts";
export { CALL_EXPORT_COLUMNS, CALL_EXPORT_CONCURRENCY, callCsvLine, csvLine } from "./call-export.ts";
export { FAREWELLS } from "./call-hang-up.ts";
export type { CallLifecycle } from "./call-lifecycle.service.ts";
export type { CallFilterRequest, CallQueries } from "./call-queries.ts";
export { minutesStarted } from "./call-settlement.ts";
export type { CallStarts, OutboundCallRequest } from "./call-starts.ts";
export { type ApiCallStatus, CALL_TRANSITIONS, isFinal, toApiStatus } from "./call-status.ts";
export type { CallTransferRecords, TransferMiss, TransferState } from "./call-transfers.ts";
export type { VoicemailSessions } from "./carrier-events.ts";
export type { InboundVariablesSource } from "./inbound-calls.ts";
export { TEST_CALLER_NUMBER, type TestCalls } from "./test-calls.ts";

/**
 * The calls module's parts, wired together in dependency order: hang-ups through the carriers, the
 * minutes (charges and the running call's timer), the lifecycle (the one writer of a call's status),
 * what carriers report, reads, starts (outbound, web, API), inbound calls, and what other modules
 * add to a call. `desk` is the port carriers deliver to (`CallDesk`): a carrier both serves calls
 * and reports on them, so the root hands it a reference to the desk built after it.
 */
export function createCalls(
  deps: ServiceDeps,
  parts: {
    carrier: CallCarrier;
    /** Set when the carrier is the simulation, which can ring the account's numbers itself. */
    inboundSimulator: InboundSimulator | null;
    /** Hangs up browser web calls (their socket may be on another instance). */
    webCarrier: () => Pick<CallCarrier, "hangUp">;
    /** Carries agent tests' calls: the simulation, whatever carrier serves real ones. */
    testCarrier: TestCallCarrier;
    billing: BillingService;
    jobs: JobQueue;
    events: EventSink;
    bus: InProcessBus;
    inboundVariables: InboundVariablesSource;
    /** The voice engine's live sessions here, which leave voicemail messages on the calls they carry. */
    voicemail: VoicemailSessions;
    /** PII redaction of what calls store (transcripts, evaluations). */
    redaction: Pick<RedactionService, "of" | "ofCall">;
  },
) {
  const { carrier, billing, jobs, events, bus } = parts;
  const hangUps = new CallHangUps(deps, {
    carrier,
    webCarrier: parts.webCarrier,
    testCarrier: parts.testCarrier,
  });
  const minutes = new CallMinutes(deps, { billing, jobs, hangUps });
  const lifecycle = new CallLifecycle(deps, { billing, minutes, hangUps, events, bus });
  const carrierEvents = new CarrierEvents(deps, { lifecycle, hangUps, voicemail: parts.voicemail });
  const queries = new CallQueries(deps);
  const starts = new CallStarts(deps, { carrier, billing, jobs, lifecycle, events });
  const inbound = new InboundCalls(deps, {
    carrierName: carrier.name,
    inboundSimulator: parts.inboundSimulator,
    billing,
    lifecycle,
    queries,
    events,
    inboundVariables: parts.inboundVariables,
  });
  const annotations = new CallAnnotations(deps, { events, bus, redaction: parts.redaction });
  const transfers = new CallTransferRecords(deps, { carrier, billing, lifecycle, hangUps, events, bus });
  const desk: CallDesk = {
    callEvent: (event) => carrierEvents.callEvent(event),
    answeringMachine: (event) => carrierEvents.answeringMachine(event),
    customerHungUp: (callId) => lifecycle.customerHungUp(callId),
    receiveInbound: (request) => inbound.receiveInbound(request),
    transcriptLine: (callId, line) => annotations.transcriptLine(callId, line),
  };
  return {
    callLifecycle: lifecycle,
    callQueries: queries,
    callStarts: starts,
    inboundCalls: inbound,
    callAnnotations: annotations,
    callDesk: desk,
    callTransferRecords: transfers,
    testCalls: new TestCalls(deps, { carrier: parts.testCarrier, lifecycle }),
  };
}
