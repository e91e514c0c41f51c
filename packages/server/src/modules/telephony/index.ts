/**
 * The carrier boundary: numbers and calls through one `TelephonyProvider`, the simulated carrier
 * (the embedded default) and Twilio. The voice engine plugs in at `MediaStreamHandler`.
 */

export { createTelephonyProvider } from "./create-provider.ts";
export { EmbeddedNumbers } from "./embedded-numbers.ts";
export type {
  CallCarrier,
  CallEventSink,
  MediaStream,
  MediaStreamHandler,
  NumberProvider,
  ProviderCallEvent,
  ProviderNumber,
  TelephonyProvider,
  TranscriptLine,
} from "./provider.ts";
export { SCRIPTED_CALLEE_LINES, SimulatedCallee } from "./simulated/callee.ts";
export { SIMULATED_TIMING, SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";
export { SIMULATED_TEST_NUMBERS, type SimulatedOutcome, simulatedOutcome } from "./simulated/test-numbers.ts";
