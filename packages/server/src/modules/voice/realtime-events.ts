import type { RealtimeEvent } from "./realtime-client.ts";
import type { ModelFunctionCall } from "./realtime-functions.ts";

/**
 * What a realtime session does on the model's events (OpenAI Realtime protocol), each with the
 * event's fields it reads, checked: the session never reads the protocol's untyped JSON itself.
 */
export interface RealtimeEventHandlers {
  /** The model's VAD heard the caller start (`audio_start_ms`, null when absent). */
  speechStarted(audioStartMs: number | null): void;
  /** The model's VAD heard the caller stop (`audio_end_ms`, null when absent). */
  speechStopped(audioEndMs: number | null): void;
  /** The caller's audio so far was committed as a turn. */
  committed(): void;
  /** The caller's turn transcribed (trimmed; empty when the event has none). */
  transcribed(text: string): void;
  responseCreated(): void;
  /** The response's assistant message began (its item, which a barge-in truncates). */
  messageItem(itemId: string): void;
  /** The response's function call began. */
  functionCallItem(): void;
  /** Base64 audio of the response, with its item when the event names it. */
  audioDelta(delta: string, itemId: string | null): void;
  /** The transcript of the response's audio. */
  transcriptDelta(delta: string): void;
  /** The response's text (text output). */
  textDelta(delta: string): void;
  /** A function call whose arguments are complete (`{}` when the event has none). */
  functionCall(call: ModelFunctionCall): void;
  responseDone(): void;
  /** An error worth logging (a harmless race is left out). */
  error(error: unknown): void;
}

/** Hands one of the model's events to its handler; events the session does not use are ignored. */
export function routeRealtimeEvent(event: RealtimeEvent, on: RealtimeEventHandlers): void {
  switch (event.type) {
    case "input_audio_buffer.speech_started":
      on.speechStarted(numberField(event, "audio_start_ms"));
      return;
    case "input_audio_buffer.speech_stopped":
      on.speechStopped(numberField(event, "audio_end_ms"));
      return;
    case "input_audio_buffer.committed":
      on.committed();
      return;
    case "conversation.item.input_audio_transcription.completed":
      on.transcribed(typeof event.transcript === "string" ? event.transcript.trim() : "");
      return;
    case "response.created":
      on.responseCreated();
      return;
    case "response.output_item.added": {
      const item = event.item as { id?: unknown; type?: unknown } | undefined;
      if (item?.type === "message" && typeof item.id === "string") on.messageItem(item.id);
      // A response that only calls a function has no other first token than its call.
      if (item?.type === "function_call") on.functionCallItem();
      return;
    }
    case "response.output_audio.delta":
      if (typeof event.delta === "string")
        on.audioDelta(event.delta, typeof event.item_id === "string" ? event.item_id : null);
      return;
    case "response.output_audio_transcript.delta":
      if (typeof event.delta === "string") on.transcriptDelta(event.delta);
      return;
    case "response.output_text.delta":
      if (typeof event.delta === "string") on.textDelta(event.delta);
      return;
    case "response.function_call_arguments.done": {
      const { call_id: callId, name } = event;
      if (typeof callId !== "string" || typeof name !== "string") return;
      on.functionCall({
        callId,
        name,
        args: typeof event.arguments === "string" ? event.arguments : "{}",
      });
      return;
    }
    case "response.done":
      on.responseDone();
      return;
    case "error": {
      const error = event.error as { code?: unknown; message?: unknown } | undefined;
      // Cancelling a response that had just finished is a harmless race.
      if (error?.code !== "response_cancel_not_active") on.error(error);
      return;
    }
    default:
      return;
  }
}

function numberField(event: RealtimeEvent, field: string): number | null {
  const value = event[field];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
