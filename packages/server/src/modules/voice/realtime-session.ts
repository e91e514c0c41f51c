import type { MediaStream } from "../media/index.ts";
import { concatBytes } from "./playback.ts";
import { type Answer, heardShare, newAnswer, ScriptedPhrases } from "./realtime-answer.ts";
import { MODEL_PCM_RATE, ModelAudioInput } from "./realtime-audio.ts";
import type { RealtimeConnection, RealtimeSessionOptions } from "./realtime-client.ts";
import { type RealtimeEventHandlers, routeRealtimeEvent } from "./realtime-events.ts";
import { type ModelFunctionCall, type RealtimePorts, runModelFunction } from "./realtime-functions.ts";
import { CallerSpeech } from "./realtime-turns.ts";
import { type CallFunctions, noTimings, type SessionSettings } from "./session-ports.ts";
import { heardSentences, splitSentences, type Utterance } from "./utterance.ts";
import { MediaSession } from "./voice-session.ts";

/**
 * Model audio between two marks at most: a barge-in's truncation is this precise, and the carrier is
 * not sent a mark per (possibly tiny) delta.
 */
const MARK_EVERY_MS = 100;

/**
 * One live call through a realtime speech model (OpenAI Realtime protocol). A phone caller's mu-law
 * frames go to the model untouched (G.711 both ways), a browser's PCM as 24 kHz PCM (see
 * `modelAudioFormat`); the model's voice activity and end of turn
 * decide when it answers. In `multimodal` mode its audio comes back and is relayed frame by frame;
 * in `dualplex` mode it answers in text, spoken sentence by sentence by the assistant's
 * text-to-speech voice. Barge-in, silence, the greeting, marks and stored turns are the shared
 * session's; on barge-in the model's response is cancelled and its message truncated to the audio
 * the marks say was played. The model's events are read in realtime-events.ts, the caller's turns
 * kept in realtime-turns.ts, and the functions it calls (hand-offs among them) run through
 * realtime-functions.ts.
 */
export class RealtimeSession extends MediaSession {
  private answer: Answer | null = null;
  private readonly scripted: ScriptedPhrases;
  private readonly caller = new CallerSpeech();
  /** Dualplex: each answer's speech starts once the previous answer's was sent. */
  private voiceLine: Promise<void> = Promise.resolve();
  private readonly audioIn: ModelAudioInput;

  constructor(
    media: MediaStream,
    settings: SessionSettings,
    private readonly realtime: RealtimePorts,
    private readonly model: RealtimeConnection,
    private readonly options: RealtimeSessionOptions,
  ) {
    // The model hears the caller through its appends; the turn's audio is read here only to count a
    // barge-in's words. Kept otherwise, every frame of a long turn outlived several young-generation
    // collections on 100 relayed calls (bench/voice: the engine's GC pauses behind its jitter tail).
    super(media, settings, realtime, settings.allowInterruptions && settings.minInterruptWords > 1);
    this.scripted = new ScriptedPhrases(realtime.logger, media.callId);
    this.audioIn = new ModelAudioInput(media, options, (audio) => model.appendAudio(audio));
  }

  override start(): void {
    const handlers = this.eventHandlers();
    this.model.onEvent((event) => {
      if (!this.closed) routeRealtimeEvent(event, handlers);
    });
    this.model.onClose(() => {
      if (this.closed || this.ending) return;
      this.ending = true;
      this.ports.logger.warn("realtime model closed the session", { callId: this.media.callId });
      this.ports
        .hangUp("The speech model ended the session.")
        .catch((error: unknown) =>
          this.ports.logger.warn("could not hang up", { callId: this.media.callId, error }),
        );
    });
    this.model.configure(this.options);
    // A new session knows nothing of the call: what was said before it (a transfer nobody answered)
    // goes in first, so that the greeting and every answer follow from it.
    for (const message of this.options.history ?? []) {
      if (message.role === "user") this.model.userMessage(message.content);
      else this.model.assistantMessage(message.content);
    }
    super.start();
  }

  protected onFrame(frame: Uint8Array) {
    this.listen(frame);
    this.audioIn.push(frame);
    this.checkSilence();
  }

  protected onDigit(digit: string) {
    this.model.userMessage(`(The caller pressed ${digit} on the keypad.)`);
    this.model.respond();
  }

  protected override interrupted(utterance: Utterance) {
    const answer = this.answer;
    if (!answer || answer.utterance !== utterance) return;
    if (!answer.finished) this.model.cancel();
    if (answer.itemId && this.options.output === "audio")
      this.model.truncate(answer.itemId, utterance.playedMs);
  }

  protected override stopped() {
    this.model.close();
  }

  protected async say(text: string, inHistory: boolean) {
    if (this.options.output === "text") {
      const utterance = await this.speak(text);
      const heard = heardSentences(utterance);
      if (inHistory && heard) this.model.assistantMessage(heard);
      await this.assistantTurn(utterance, text, heard);
      return;
    }
    await this.askModelToSay(text).played;
  }

  /** The model speaks with its own voice: it is asked for the words. */
  private askModelToSay(text: string): { generated: Promise<void>; played: Promise<void> } {
    const phrase = this.scripted.expect();
    this.model.respond(`Say exactly this to the caller, word for word, and nothing else: "${text}"`);
    return phrase;
  }

  private eventHandlers(): RealtimeEventHandlers {
    return {
      speechStarted: (audioStartMs) => {
        this.heardCaller();
        this.caller.started(audioStartMs ?? this.detector.now);
        this.considerBargeIn();
      },
      speechStopped: (audioEndMs) => {
        this.heardCaller();
        this.caller.stopped(audioEndMs ?? this.detector.now, this.detector.now);
      },
      committed: () => {
        if (this.greeted) return;
        // wait_for_customer: the callee spoke first; the greeting is the answer, then the model answers.
        this.greet();
        this.model.answerTurns(this.options.turnDetection);
      },
      transcribed: (text) => this.callerSaid(text),
      responseCreated: () => this.begin(),
      messageItem: (itemId) => {
        if (this.answer) this.answer.itemId ??= itemId;
      },
      functionCallItem: () => this.firstToken(),
      audioDelta: (delta, itemId) => this.audioDelta(delta, itemId),
      transcriptDelta: (delta) => {
        if (!this.answer) return;
        // The transcript of the model's audio may run ahead of the audio itself.
        this.firstToken();
        this.answer.transcript += delta;
      },
      textDelta: (delta) => this.textDelta(delta),
      functionCall: (call) => this.functionCall(call),
      responseDone: () => {
        if (this.answer && !this.answer.finished) this.finish(this.answer);
      },
      error: (error) => this.ports.logger.warn("realtime model error", { callId: this.media.callId, error }),
    };
  }

  private callerSaid(text: string) {
    const span = this.caller.transcribed(text, this.detector.now);
    if (!span) return;
    // The transcription runs beside the model: it may arrive after the answer started.
    const timings = this.answer?.utterance.timings;
    if (timings && timings.speechEndedAt !== null) timings.transcriptAt ??= this.caller.lastTranscribedAt;
    this.recordTurn({
      speaker: "customer",
      text,
      heardText: text,
      interrupted: false,
      startMs: span.startMs,
      endMs: span.endMs,
      timings: null,
    }).catch((error: unknown) =>
      this.ports.logger.warn("could not store the caller's turn", { callId: this.media.callId, error }),
    );
  }

  private begin() {
    const scripted = this.scripted.next();
    const utterance = this.utterance({ ...noTimings(), ...this.caller.responded(scripted !== null) });
    this.busy += 1;
    const previous = this.voiceLine;
    let release = () => {};
    this.voiceLine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.answer = newAnswer({
      utterance,
      sentences:
        this.options.output === "text" ? this.sentenceQueue(utterance, this.abort.signal, previous) : null,
      release,
      scripted,
    });
  }

  private audioDelta(delta: string, itemId: string | null) {
    const answer = this.answer;
    if (!answer || answer.utterance.cleared) return;
    if (itemId !== null) answer.itemId ??= itemId;
    const { utterance } = answer;
    utterance.timings.firstTokenAt ??= Date.now();
    let bytes: Uint8Array = Buffer.from(delta, "base64");
    if (this.options.audioFormat === "pcm")
      bytes = this.speechIn(bytes, answer.modelCarry, MODEL_PCM_RATE, (rest) => {
        answer.modelCarry = rest;
      });
    answer.carry = this.sendFrames(utterance, concatBytes(answer.carry, bytes), false);
    if (utterance.sentMs - answer.markedMs >= MARK_EVERY_MS) this.mark(answer);
  }

  /** The model's first output for the answer under way: audio, its transcript, text or a function call. */
  private firstToken() {
    const utterance = this.answer?.utterance;
    if (utterance && !utterance.cleared) utterance.timings.firstTokenAt ??= Date.now();
  }

  private mark(answer: Answer) {
    answer.markedMs = answer.utterance.sentMs;
    this.markPlayback(answer.utterance);
  }

  private textDelta(delta: string) {
    const answer = this.answer;
    if (!answer?.sentences || answer.utterance.cleared) return;
    answer.utterance.timings.firstTokenAt ??= Date.now();
    answer.transcript += delta;
    answer.pending += delta;
    const split = splitSentences(answer.pending);
    answer.pending = split.rest;
    for (const sentence of split.sentences) answer.sentences.push(sentence);
  }

  private functionCall(call: ModelFunctionCall) {
    const answer = this.answer;
    if (!answer) return;
    this.firstToken();
    // A turn that is only a function call is placed in the call where the model made it.
    answer.utterance.startMs ??= this.detector.now;
    const functions: CallFunctions = {
      sendDigits: (digits) => this.sendDigits(digits),
      onFunctionCall: () => {
        if (!answer.sentences) {
          answer.wantsFiller = true;
          return;
        }
        if (answer.filled) return;
        answer.filled = true;
        const filler = this.nextFiller();
        if (filler) answer.sentences.push(filler);
      },
    };
    answer.calls.push(runModelFunction(this.realtime, this.ports.logger, this.media.callId, call, functions));
  }

  private finish(answer: Answer) {
    answer.finished = true;
    answer.scripted?.generated();
    this.complete(answer)
      .catch((error: unknown) => {
        if (!this.closed) this.ports.logger.warn("voice turn failed", { callId: this.media.callId, error });
      })
      .finally(() => {
        answer.release();
        this.busy -= 1;
        this.quietSinceMs = this.detector.now;
        answer.scripted?.played();
      });
  }

  private async complete(answer: Answer) {
    const { utterance } = answer;
    if (!utterance.cleared) {
      if (answer.sentences && answer.pending.trim()) answer.sentences.push(answer.pending.trim());
      this.sendFrames(utterance, answer.carry, true);
      if (utterance.sentMs > answer.markedMs) this.mark(answer);
    }
    // Multimodal: the model says the filler while the functions run; their results follow once it has
    // (a model generates one response at a time).
    const filler = answer.wantsFiller && !utterance.cleared ? this.nextFiller() : null;
    const fillerSaid = filler ? this.askModelToSay(filler).generated : Promise.resolve();
    const results = await Promise.all(answer.calls);
    await fillerSaid;
    const endCall = results.some((result) => result.endCall);
    // The new assistant's instructions reach the model before the function's result: a session has one
    // set of instructions, so the handover sentence is already the new assistant's.
    for (const { handover } of results) {
      if (!handover || this.closed) continue;
      this.model.instruct(handover.instructions, handover.tools);
      await this.adopt(handover);
    }
    // The model goes on at once (its next words queue behind these); the caller need not hear them first.
    if (results.length > 0 && !utterance.cleared && !endCall) {
      for (const result of results) this.model.functionOutput(result.callId, result.output);
      this.caller.continueFrom(utterance.timings);
      this.model.respond();
    }
    await answer.sentences?.drained();
    answer.release();
    await this.finishUtterance(utterance);
    const heard = answer.sentences
      ? heardSentences(utterance)
      : heardShare(answer.transcript.trim(), utterance);
    // A dualplex filler is part of what the assistant said even when the model wrote nothing.
    await this.assistantTurn(
      utterance,
      answer.transcript.trim() || utterance.sentences.join(" "),
      heard,
      results.map((result) => result.record),
    );
    if (endCall && !utterance.cleared) {
      this.ending = true;
      await this.ports.hangUp("The assistant ended the call.");
    }
  }
}
