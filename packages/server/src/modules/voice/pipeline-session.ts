import type { MediaStream } from "../media/index.ts";
import { type AnswerVoice, batchVoice, streamedVoice } from "./answer-voice.ts";
import { looksUnfinished, semanticWaits } from "./semantic-turn.ts";
import {
  type Handover,
  noTimings,
  type PipelinePorts,
  type PipelineReply,
  type SessionSettings,
} from "./session-ports.ts";
import type { SpeechFormat, SpeechStream, TranscriptionStream } from "./speech.ts";
import { heardSentences, splitSentences, type Utterance } from "./utterance.ts";
import { MediaSession } from "./voice-session.ts";

/**
 * One live call in pipeline mode: local end-of-turn on the caller's audio, speech-to-text of the
 * turn, the reply engine's answer streamed sentence by sentence through text-to-speech back as
 * frames in the stream's format with a mark after each sentence. The media clock (frames received) drives every
 * timing decision, so the same audio always gives the same conversation.
 */
export class PipelineSession extends MediaSession {
  private readonly history: { role: "user" | "assistant"; content: string }[] = [];
  /** What the caller said before a pause in mid-thought (semantic end of turn), and when they began. */
  private carry: { text: string; startMs: number } | null = null;
  private lastSpeechStartMs = -1;
  /** A turn that reads as unfinished waits until the caller goes on (true) or the wait is over (false). */
  private resumeWait: { untilMs: number; resolve: (resumed: boolean) => void } | null = null;
  /** The streaming transcription, until it fails (then turns are transcribed whole). */
  private transcription: TranscriptionStream | null = null;
  /** The streaming transcription's words of the caller's utterance so far. */
  private interim = "";
  /**
   * The turn the local detector ended that the streaming transcription has not finished yet: what
   * the batch transcriber is given if the stream fails before it does.
   */
  private untranscribed: CallerTurn | null = null;
  /** The streaming transcription finished an utterance since the caller last started speaking. */
  private finishedSinceSpeech = false;
  /** The call's streaming synthesizer failed once: the rest of the call speaks sentence by sentence. */
  private streamFailed = false;
  /** The answering assistant's streaming voice (a hand-off brings its own). */
  private openSpeech: PipelinePorts["openSpeech"];

  constructor(
    media: MediaStream,
    settings: SessionSettings,
    private readonly pipeline: PipelinePorts,
  ) {
    super(media, settings, pipeline);
    this.openSpeech = pipeline.openSpeech;
  }

  override start(): void {
    this.transcription =
      this.pipeline.openTranscription?.({
        onInterim: (text) => this.onInterim(text),
        onUtterance: (text) => this.onUtterance(text),
        onError: (error) => this.transcriptionFailed(error),
      }) ?? null;
    super.start();
  }

  protected onFrame(frame: Uint8Array) {
    this.transcription?.push(frame);
    const event = this.listen(frame);
    if (event?.type === "speech-start") {
      this.lastSpeechStartMs = this.detector.now;
      this.finishedSinceSpeech = false;
      this.endResumeWait(true);
    } else if (this.resumeWait && this.detector.now >= this.resumeWait.untilMs) this.endResumeWait(false);
    // A text stream's caller turn arrives as text (`onText`); its voice only keeps the clock and barges in.
    if (event?.type === "end-of-turn" && !this.media.text) {
      const audio = event.audio;
      const audioMs = audio.length / (this.media.format.sampleRate / 1000);
      const turn: CallerTurn = {
        audio,
        speechEndedAt: Date.now() - (this.detector.now - event.speechEndMs),
        span: { startMs: Math.max(0, this.detector.now - audioMs), endMs: event.speechEndMs },
      };
      this.heardCaller();
      // Streaming: the provider's final transcript answers the turn (`onUtterance`); the audio is
      // kept only in case the stream fails first.
      if (this.transcription) this.untranscribed = this.finishedSinceSpeech ? null : turn;
      else this.enqueue(() => this.caller(turn));
      return;
    }
    this.checkSilence();
  }

  protected override wordsSoFar(): string | null {
    return this.transcription ? this.interim : null;
  }

  private onInterim(text: string) {
    if (this.closed) return;
    this.interim = text;
    // Words count toward `min_interrupt_words`; a single word's barge-in is the local detector's.
    if (this.speaking && this.settings.minInterruptWords > 1) this.considerBargeIn();
  }

  /** The provider ended the caller's utterance: the reply starts now, not at our own end of turn. */
  private onUtterance(text: string) {
    if (this.closed) return;
    this.interim = text;
    if (this.speaking && this.settings.minInterruptWords > 1) this.considerBargeIn();
    this.interim = "";
    const turn = this.untranscribed;
    this.untranscribed = null;
    this.finishedSinceSpeech = true;
    const now = this.detector.now;
    // Before our own detector ended the turn, the speech ended about now (the provider's endpointing).
    const speechEndedAt = turn?.speechEndedAt ?? Date.now();
    const span = turn?.span ?? { startMs: Math.max(0, this.lastSpeechStartMs), endMs: now };
    this.heardCaller();
    this.enqueue(() => this.callerSaid(text, speechEndedAt, span));
  }

  /** The streaming provider failed: the call goes on with batch speech-to-text, from the turn it missed. */
  private transcriptionFailed(error: Error) {
    if (!this.transcription) return;
    this.transcription.close();
    this.transcription = null;
    this.interim = "";
    this.ports.logger.warn("streaming speech-to-text failed; transcribing turns whole from now on", {
      callId: this.media.callId,
      error,
    });
    const turn = this.untranscribed;
    this.untranscribed = null;
    if (turn && !this.closed) this.enqueue(() => this.caller(turn));
  }

  protected onDigit(digit: string) {
    this.enqueue(() => this.answer(`(The caller pressed ${digit} on the keypad.)`, null));
  }

  protected override stopped() {
    this.endResumeWait(false);
    this.transcription?.close();
    this.transcription = null;
  }

  private endResumeWait(resumed: boolean) {
    const wait = this.resumeWait;
    this.resumeWait = null;
    wait?.resolve(resumed);
  }

  /**
   * Semantic end of turn: a transcript that reads as unfinished waits, up to the longer bound after
   * the caller's last word, for them to go on; true when they did (the text is then carried into
   * their next turn).
   */
  private callerGoesOn(text: string, speechEndMs: number): Promise<boolean> {
    if (!this.settings.semanticEndOfTurn || !looksUnfinished(text)) return Promise.resolve(false);
    if (this.lastSpeechStartMs > speechEndMs) return Promise.resolve(true);
    const untilMs = speechEndMs + semanticWaits(this.settings.endpointSensitivity).unfinished;
    if (this.closed || this.detector.now >= untilMs) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.resumeWait = { untilMs, resolve };
    });
  }

  protected override onText(text: string, spokenMs: number) {
    const now = this.detector.now;
    this.heardCaller();
    this.enqueue(() =>
      this.callerSaid(text, Date.now(), { startMs: Math.max(0, now - spokenMs), endMs: now }),
    );
  }

  private async caller({ audio, speechEndedAt, span }: CallerTurn) {
    await this.callerSaid(
      await this.ports.transcribe(this.callerWav(audio), this.abort.signal),
      speechEndedAt,
      span,
    );
  }

  /** The caller's turn, transcribed (or said as text): stored, then answered. */
  private async callerSaid(piece: string, speechEndedAt: number, span: { startMs: number; endMs: number }) {
    const text = [this.carry?.text, piece].filter(Boolean).join(" ");
    const startMs = this.carry?.startMs ?? span.startMs;
    this.carry = null;
    if (!text) return;
    if (await this.callerGoesOn(text, span.endMs)) {
      this.carry = { text, startMs };
      return;
    }
    const transcriptAt = Date.now();
    await this.recordTurn({
      speaker: "customer",
      text,
      heardText: text,
      interrupted: false,
      startMs,
      endMs: span.endMs,
      timings: null,
    });
    if (!this.greeted) {
      // wait_for_customer: the callee spoke first; the greeting is the answer.
      this.history.push({ role: "user", content: text });
      this.greet();
      return;
    }
    await this.answer(text, { speechEndedAt, transcriptAt });
  }

  private async answer(text: string, stages: { speechEndedAt: number; transcriptAt: number } | null) {
    this.history.push({ role: "user", content: text });
    const utterance = this.utterance({
      ...noTimings(),
      speechEndedAt: stages?.speechEndedAt ?? null,
      transcriptAt: stages?.transcriptAt ?? null,
    });
    const signal = this.abort.signal;
    const voice = await this.answerVoice(utterance, signal);
    let filled = false;
    let result: PipelineReply = { text: "", endCall: false };
    try {
      result = await this.pipeline.reply(
        this.history,
        (delta) => {
          utterance.timings.firstTokenAt ??= Date.now();
          voice.delta(delta);
        },
        signal,
        {
          sendDigits: (digits) => this.sendDigits(digits),
          onFunctionCall: () => {
            const filler = filled ? null : this.nextFiller();
            filled = true;
            if (filler) voice.sentence(filler);
          },
        },
      );
    } catch (error) {
      // A barge-in aborted the reply: what was already played is still the assistant's turn.
      if (!signal.aborted) throw error;
    }
    if (!voice.spoke && result.text && !signal.aborted) voice.sentence(result.text);
    await voice.finish();
    await this.finishUtterance(utterance);
    const heard = heardSentences(utterance);
    this.history.push({ role: "assistant", content: heard });
    await this.assistantTurn(
      utterance,
      result.text || utterance.sentences.join(" "),
      heard,
      result.functionCalls,
    );
    if (result.handover) await this.handOver(result.handover);
    if (result.endCall && !utterance.cleared) {
      this.ending = true;
      await this.ports.hangUp("The assistant ended the call.");
    }
    this.yieldTurn();
  }

  /**
   * Another assistant answers from the next turn, on this session and stream: its settings and voice
   * replace the call's (end of turn excepted, see `Handover`), and the transcript marks the change.
   */
  private async handOver(next: () => Promise<Handover | null>) {
    let handover: Handover | null;
    try {
      handover = await next();
    } catch (error) {
      this.ports.logger.warn("the hand-off could not be applied; the answering assistant keeps the call", {
        callId: this.media.callId,
        error,
      });
      return;
    }
    if (!handover || this.closed) return;
    this.openSpeech = handover.openSpeech;
    // A new voice may be another provider's: its socket gets its own chance.
    this.streamFailed = false;
    await this.adopt(handover);
  }

  /**
   * Where an answer's text goes as the model writes it: a streaming synthesizer's context when the
   * call has one (and it has not failed), else sentence by sentence through text-to-speech.
   */
  private async answerVoice(utterance: Utterance, signal: AbortSignal): Promise<AnswerVoice> {
    const batch = batchVoice(this.sentenceQueue(utterance, signal), signal);
    if (!this.openSpeech || this.media.text || this.streamFailed) return batch;
    let opened: { format: SpeechFormat; stream: SpeechStream };
    try {
      opened = await this.openSpeech(signal);
    } catch (error) {
      if (signal.aborted) return batch;
      this.streamFailed = true;
      this.ports.logger.warn("streaming text-to-speech unavailable; speaking sentence by sentence", {
        callId: this.media.callId,
        error,
      });
      return batch;
    }
    const call = {
      closed: () => this.closed,
      failed: (error: unknown) => {
        this.streamFailed = true;
        this.ports.logger.warn("streaming text-to-speech failed mid-answer; speaking sentence by sentence", {
          callId: this.media.callId,
          error,
        });
      },
    };
    return streamedVoice(this.playback, call, utterance, signal, opened.stream, opened.format, batch);
  }

  protected async say(text: string, inHistory: boolean) {
    // Fixed phrases speak with the answers' voice (a streaming provider's when the call has one).
    const utterance = this.utterance(noTimings());
    const voice = await this.answerVoice(utterance, this.abort.signal);
    for (const sentence of splitSentences(`${text} `).sentences) voice.sentence(sentence);
    await voice.finish();
    await this.finishUtterance(utterance);
    const heard = heardSentences(utterance);
    if (inHistory) this.history.push({ role: "assistant", content: heard });
    await this.assistantTurn(utterance, text, heard);
    this.yieldTurn();
  }

  /** A text stream's other side hears no pause: it is told that the assistant's turn is over. */
  private yieldTurn() {
    if (!this.ending && !this.closed) this.media.text?.turnEnded();
  }
}

/** A caller turn the local detector ended: its audio, when the speech ended (epoch ms) and its media span. */
interface CallerTurn {
  audio: Int16Array;
  speechEndedAt: number;
  span: { startMs: number; endMs: number };
}
