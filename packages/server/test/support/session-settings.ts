import type { RealtimeSessionOptions } from "../../src/modules/voice/realtime-client.ts";
import type { SessionSettings } from "../../src/modules/voice/session-ports.ts";

/** A live call's voice settings at their defaults, no greeting and no silence prompts: tests and benches override. */
export const SESSION_SETTINGS: SessionSettings = {
  initialMessage: "",
  waitForCustomer: false,
  allowInterruptions: true,
  interruptSensitivity: 0.5,
  minInterruptWords: 1,
  endpointSensitivity: 0.5,
  semanticEndOfTurn: false,
  maxSilenceDuration: 0,
  reengagementInterval: 0,
  language: null,
  voice: "alloy",
  speechSpeed: 1,
  fillers: [],
};

/** A multimodal session relaying a phone's mu-law to a model and back, for bench/voice (one append a frame). */
export const RELAY_OPTIONS: RealtimeSessionOptions = {
  instructions: "",
  tools: [],
  output: "audio",
  voice: "alloy",
  speed: 1,
  temperature: 0.8,
  audioFormat: "g711_ulaw",
  appendMs: 20,
  transcribeModel: "bench",
  language: null,
  turnDetection: { type: "server_vad", silenceMs: 750 },
  createResponse: true,
};
