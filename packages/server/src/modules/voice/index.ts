/** The media plane: live calls' audio, turns and speech (see docs/voice.md). */
export type {
  KeyProvider,
  ProviderChoice,
  ProviderSelection,
  SynthesizerName,
  TranscriberName,
} from "./call-providers.ts";
export { type CallLatency, CallTurnsService } from "./call-turns.service.ts";
export { DetectorRegistry, type EndpointDetection, silenceEndpoint } from "./detectors.ts";
export type { TestCallSetup, TestOverridable } from "./live-call-functions.ts";
export { LiveSessions } from "./live-sessions.ts";
export { RealtimeClient, type RealtimeModel } from "./realtime-client.ts";
export { Recordings, recordingPath } from "./recording.ts";
export { SileroWorker } from "./silero-worker.ts";
export type {
  SpeechStream,
  StreamingSynthesizer,
  StreamingTranscriber,
  Synthesizer,
  Transcriber,
} from "./speech.ts";
export { OpenAiSynthesizer, OpenAiTranscriber } from "./speech-client.ts";
export { MediaStreamDecorator } from "./stream-decorator.ts";
export {
  CartesiaSynthesizer,
  ElevenLabsSynthesizer,
  streamingSynthesizers,
} from "./streaming-speech.ts";
export { streamingTranscriber } from "./streaming-stt.ts";
export { VoiceService } from "./voice.service.ts";
export { energyDetector } from "./voice-activity.ts";
export { VOICE_PHRASES } from "./voice-session.ts";
