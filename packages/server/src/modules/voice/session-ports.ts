import type { Logger } from "../../logger.ts";
import type { FunctionCallRecord } from "../message-pipeline/index.ts";
import type { TurnDetectorFactory } from "./detectors.ts";
import type { SpeechFormat, SpeechStream, TranscriptionEvents, TranscriptionStream } from "./speech.ts";

/** The assistant settings a live call uses. */
export interface SessionSettings {
  initialMessage: string;
  waitForCustomer: boolean;
  allowInterruptions: boolean;
  interruptSensitivity: number;
  /** Words the caller must say over the assistant before it stops (1: any sustained voice). */
  minInterruptWords: number;
  endpointSensitivity: number;
  /** Pipeline mode's `endpoint_type: semantic`: the end of turn reads the transcript (semantic-turn.ts). */
  semanticEndOfTurn: boolean;
  /** The stream's turn detector, from `endpoint_type` (the detector registry); the energy one's when absent. */
  turnDetector?: TurnDetectorFactory;
  /** Seconds of silence after which the call ends; 0 turns silence handling off. */
  maxSilenceDuration: number;
  /** Seconds of silence between re-engagement prompts. */
  reengagementInterval: number;
  language: string | null;
  /** The provider's voice name (voice catalogue's providerVoiceId). */
  voice: string;
  speechSpeed: number;
  /** Phrases spoken while a function runs (`fillers` on); empty when off. */
  fillers: string[];
}

/** Per-stage times of one assistant turn, in epoch ms (null where the stage did not happen). */
export interface TurnTimings {
  speechEndedAt: number | null;
  transcriptAt: number | null;
  firstTokenAt: number | null;
  firstAudioAt: number | null;
  playedAt: number | null;
}

export const noTimings = (): TurnTimings => ({
  speechEndedAt: null,
  transcriptAt: null,
  firstTokenAt: null,
  firstAudioAt: null,
  playedAt: null,
});

/** What a live call's functions can do to the call while the model runs them. */
export interface CallFunctions {
  /** Plays keypad digits to the other side (in-band DTMF). */
  sendDigits(digits: string): Promise<void>;
  /** A function is about to run: a filler covers the wait. */
  onFunctionCall(name: string): void;
}

/** What every session needs from the rest of the server; the voice service implements it. */
export interface SessionPorts {
  logger: Logger;
  transcribe(wav: Buffer, signal: AbortSignal): Promise<string>;
  /** One sentence's speech: 16-bit mono PCM chunks at `sampleRate` (the synthesizer's own). */
  synthesize(
    text: string,
    signal: AbortSignal,
  ): Promise<{ sampleRate: number; audio: AsyncIterable<Uint8Array> }>;
  /** A finished turn: what the caller said, or what the assistant said and what of it was heard. */
  turn(turn: SessionTurn): Promise<void>;
  /** Hang up, ended by the assistant. */
  hangUp(reason: string): Promise<void>;
  /** The caller hung up (the stream stopped without the session asking). */
  callerLeft(): Promise<void>;
}

export interface PipelinePorts extends SessionPorts {
  /** The assistant's answer to the conversation so far, streamed through `onDelta`. */
  reply(
    history: { role: "user" | "assistant"; content: string }[],
    onDelta: (text: string) => void,
    signal: AbortSignal,
    functions: CallFunctions,
  ): Promise<PipelineReply>;
  /**
   * Speech-to-text as the caller speaks (the deployment's streaming provider); without it, or once
   * it failed, each turn is transcribed whole by `transcribe`.
   */
  openTranscription?(events: TranscriptionEvents): TranscriptionStream;
  /**
   * One answer's speech with its text streamed in as the model writes it (a context on the call's
   * streaming synthesizer socket), chunks in `format`; absent when the call speaks sentence by
   * sentence through `synthesize`.
   */
  openSpeech?(signal: AbortSignal): Promise<{ format: SpeechFormat; stream: SpeechStream }>;
}

/** One answer of the pipeline: its text, and what the call does after it is spoken. */
export interface PipelineReply {
  text: string;
  endCall: boolean;
  /** The answer handed the call to another assistant (`handoff`): what answers from the next turn. */
  handover?: () => Promise<Handover | null>;
  /** The functions the model called for this answer, stored with the turn for review. */
  functionCalls?: FunctionCallRecord[];
}

/**
 * What a hand-off changes in a running session (docs/transfers.md#live-call-hand-offs): the same
 * session and media stream go on with the new assistant's settings and voice.
 */
export interface Handover {
  /**
   * The new assistant's settings. End of turn (`turnDetector`, `semanticEndOfTurn`,
   * `endpointSensitivity`) stays the call's: its detector holds the caller's audio so far, and a
   * streaming transcription was opened with its endpointing.
   */
  settings: SessionSettings;
  /** The new assistant's streaming voice; absent: it speaks sentence by sentence. */
  openSpeech?: PipelinePorts["openSpeech"];
  /** The transcript's line marking the hand-over. */
  marker: string;
}

export interface SessionTurn {
  /** `system`: a marker in the transcript (a hand-over), nobody's words. */
  speaker: "assistant" | "customer" | "system";
  /** The caller's transcript, or everything the assistant generated for the turn. */
  text: string;
  /** What the caller heard: `text`, or for an interrupted assistant turn the part played. */
  heardText: string;
  interrupted: boolean;
  /** Media milliseconds from the start of the stream. */
  startMs: number;
  endMs: number;
  timings: TurnTimings | null;
  /** Assistant turns: the functions the model called to write it. */
  functionCalls?: FunctionCallRecord[];
}
