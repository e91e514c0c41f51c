/**
 * The carrier boundary: numbers and calls through one `TelephonyProvider`, the simulated carrier
 * (the embedded default) and Twilio. The voice engine plugs in at `MediaStreamHandler` (modules/media).
 */

export { createTelephony } from "./create-provider.ts";
export { EmbeddedNumbers } from "./embedded-numbers.ts";
export type {
  CallCarrier,
  CallDesk,
  CallEventSink,
  CallerIdChallenge,
  CallerIdDesk,
  InboundDecision,
  InboundSimulator,
  NumberProvider,
  ProviderCallEvent,
  ProviderNumber,
  ProviderTextEvent,
  TelephonyProvider,
  TestCallCarrier,
  TextCarrier,
  TextDesk,
  TextSimulator,
  TranscriptLine,
  TransferCarrier,
  TransferDesk,
  TransferMissOutcome,
} from "./provider.ts";
export { TRANSFER_RING_SECONDS } from "./provider.ts";
export {
  SCRIPTED_CALLEE_LINES,
  SCRIPTED_CALLER_LINES,
  SimulatedCallee,
  TEST_CALLER_DONE,
  type TestCaller,
  type TestCallers,
} from "./simulated/callee.ts";
export { LINE_LOST_REASON, SIMULATED_LINE_LEASE } from "./simulated/live-lines.ts";
export { SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";
export { SIMULATED_TIMING } from "./simulated/steps.ts";
export { SIMULATED_TEST_NUMBERS, type SimulatedOutcome, simulatedOutcome } from "./simulated/test-numbers.ts";
export { parseTranscript } from "./transcript.ts";
export { TwilioMediaStreams } from "./twilio/media-streams.ts";
export { CarrierError, TWILIO_PATHS, TwilioTelephonyProvider } from "./twilio/twilio-provider.ts";
export {
  mediaStreamUrl,
  type TwilioAnswer,
  type TwilioParams,
  TwilioWebhooks,
} from "./twilio/twilio-webhooks.ts";
