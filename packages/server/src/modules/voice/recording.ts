import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { type MediaStream, type MediaStreamHandler, toMuLaw8k } from "../media/index.ts";
import { CallMix, silenceWav } from "./recording-mix.ts";
import { createRecordingStore, type RecordingStore, type StoredRecording } from "./recording-store.ts";
import { MediaStreamDecorator } from "./stream-decorator.ts";

/** What recording needs of the calls module, the one writer of calls: where a call's recording stands. */
export interface RecordedCalls {
  recordingStarted(callId: number): Promise<void>;
  recordingStored(callId: number, url: string): Promise<void>;
  recordingFailed(callId: number): Promise<void>;
}

/** Where a call's recording is served (`src/http/recordings.ts`), under PUBLIC_BASE_URL. */
export function recordingPath(callId: number): string {
  return `/recordings/${callId}.wav`;
}

/**
 * Call recording (the assistant's `record`): a decorator of the media plane's handler. A stream of
 * a call whose assistant records is handed on wrapped, so that the caller's audio coming in and the
 * assistant's going out are mixed on their way (`CallMix`); when the stream closes the mix is
 * stored as a mu-law WAV (`RecordingStore`) and the call's `recordingUrl` points at it. Works with
 * any carrier that streams media; the voice engine does not know it is recorded.
 */
export class Recordings implements MediaStreamHandler, Lifecycle {
  private readonly store: RecordingStore;
  private readonly saving = new Set<Promise<void>>();
  /** The recordings this instance is making, until stored: a redacted turn is silenced in them. */
  private readonly live = new Map<number, CallMix>();
  /** Silencing of stored recordings, one after the other per call (each rewrites the file). */
  private rewrites = new Map<number, Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { inner: MediaStreamHandler; calls: RecordedCalls },
  ) {
    this.store = createRecordingStore(deps.db);
  }

  async start(): Promise<void> {
    await this.store.removeOrphans();
  }

  /** Recordings still being written are finished first. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.saving]);
    await this.store.close();
  }

  async handle(stream: MediaStream): Promise<void> {
    // A text stream (a simulated call) carries no audio: there is nothing to record.
    if (stream.text) return this.parts.inner.handle(stream);
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: stream.callId },
      select: { assistant: { select: { record: true } } },
    });
    if (!call?.assistant?.record) return this.parts.inner.handle(stream);
    // Before the stream can close: the call's end may then wait for the recording (call.ended).
    await this.parts.calls.recordingStarted(stream.callId);
    const mix = new CallMix();
    this.live.set(stream.callId, mix);
    // First of the stream's listeners: a caller's frame is on the timeline before the engine answers it.
    stream.onAudio((frame) => mix.caller(toMuLaw8k(stream.format, frame)));
    stream.onClose(() => {
      const saved = this.save(stream.callId, mix).finally(() => this.saving.delete(saved));
      this.saving.add(saved);
    });
    return this.parts.inner.handle(new RecordedStream(stream, mix));
  }

  /** From now on a silenced turn rewrites the stored file (unless a newer stream records the call). */
  private forget(callId: number, mix: CallMix): void {
    if (this.live.get(callId) === mix) this.live.delete(callId);
  }

  /**
   * Silences a stretch of a call's recording (a turn whose words were redacted): in the mix while the
   * call is recorded here, else in the stored file (a turn stored after the call's stream closed).
   * Nothing when the call is not recorded. `throughQueued` for an assistant's turn (see `CallMix`).
   */
  async silence(
    callId: number,
    startMs: number,
    endMs: number,
    options: { throughQueued?: boolean } = {},
  ): Promise<void> {
    const mix = this.live.get(callId);
    if (mix) {
      mix.silence(startMs, endMs, options);
      return;
    }
    const previous = this.rewrites.get(callId) ?? Promise.resolve();
    const rewrite = previous.then(async () => {
      const stored = await this.store.open(callId);
      if (!stored) return;
      const pieces: Buffer[] = [];
      for await (const piece of stored.read(0, stored.size - 1)) pieces.push(piece);
      await this.store.save(callId, [silenceWav(Buffer.concat(pieces), startMs, endMs, options)]);
    });
    const settled = rewrite.catch(() => {});
    this.rewrites.set(callId, settled);
    void settled.finally(() => {
      if (this.rewrites.get(callId) === settled) this.rewrites.delete(callId);
    });
    await rewrite;
  }

  /** Deletes a call's stored recording (retention, a customer's erasure); a missing one is not an error. */
  remove(callId: number): Promise<void> {
    return this.store.remove(callId);
  }

  /** The account's call recording, or NOT_FOUND (another account's call is not found either). */
  async open(accountId: number, callId: number): Promise<StoredRecording> {
    const owned = await this.deps.db.prisma.call.count({ where: { id: callId, accountId } });
    const recording = owned > 0 ? await this.store.open(callId) : null;
    if (!recording) throw new NotFoundError("Recording");
    return recording;
  }

  private async save(callId: number, mix: CallMix): Promise<void> {
    try {
      // A turn silenced while the file was written is in the mix: written again with it.
      let revision: number;
      do {
        revision = mix.revision;
        await this.store.save(callId, mix.wav());
      } while (revision !== mix.revision);
      this.forget(callId, mix);
    } catch (error) {
      this.forget(callId, mix);
      this.deps.logger.error("a call recording could not be stored", { callId, error });
      await this.parts.calls
        .recordingFailed(callId)
        .catch((failure: unknown) =>
          this.deps.logger.error("a failed recording could not be noted", { callId, error: failure }),
        );
      return;
    }
    try {
      await this.parts.calls.recordingStored(
        callId,
        `${this.deps.config.publicBaseUrl}${recordingPath(callId)}`,
      );
      this.deps.logger.info("call recording stored", { callId, seconds: mix.seconds });
    } catch (error) {
      this.deps.logger.error("a stored call recording could not be noted on its call", { callId, error });
    }
  }
}

/** The stream the engine sees: the same, with what it sends to the caller mixed into the recording. */
class RecordedStream extends MediaStreamDecorator {
  constructor(
    stream: MediaStream,
    private readonly mix: CallMix,
  ) {
    super(stream);
  }

  override sendAudio(frame: Uint8Array) {
    this.mix.assistant(toMuLaw8k(this.stream.format, frame));
    this.stream.sendAudio(frame);
  }

  override clearAudio() {
    this.mix.clear();
    this.stream.clearAudio();
  }
}
