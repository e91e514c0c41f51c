import type { ServiceDeps } from "../../deps.ts";
import type { CallTurn, Prisma } from "../../generated/prisma/client.ts";
import { storableText } from "../../storable-text.mjs";
import type { CallAnnotations } from "../calls/index.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { Recordings } from "./recording.ts";
import type { SessionTurn } from "./session-ports.ts";

/** Latency of a call's answered turns, from the caller's end of speech, in ms. */
export interface CallLatency {
  /** Assistant turns that answered a caller's speech and sent audio. */
  turns: number;
  /** To the first audio byte sent back (what the engine, speech and model add). */
  firstAudioP50Ms: number | null;
  firstAudioP95Ms: number | null;
  /** To the transcript of the caller's turn. */
  transcriptP50Ms: number | null;
  /** To the model's first token. */
  firstTokenP50Ms: number | null;
}

/** How far before and after a redacted turn the recording is silenced too. */
const SILENCE_MARGIN_MS = 250;

/**
 * The turns of live calls (the one writer of `call_turns`): each turn is stored with its stage
 * times, its heard text is appended to the call's flat `transcript` (REST), and `call:turn` is
 * published for `callTranscript` subscribers.
 */
export class CallTurnsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly calls: Pick<CallAnnotations, "transcriptLine">,
    /** The live session keeps the real words; what is stored is redacted (docs/data-governance.md). */
    private readonly redaction: Pick<RedactionService, "ofCall">,
    /** Where a turn with redacted words is silenced when the assistant asks for it (recordings). */
    private readonly recordings: () => Pick<Recordings, "silence">,
  ) {}

  async record(call: { id: number; accountId: number }, turn: SessionTurn): Promise<void> {
    const date = (ms: number | null | undefined) => (ms ? new Date(ms) : null);
    const redactor = await this.redaction.ofCall(call.id);
    const text = redactor.text(turn.text);
    const heardText = turn.heardText === turn.text ? text : redactor.text(turn.heardText);
    // Word timings are not kept: the whole turn is silenced, with a margin for where speech
    // detection put its edges.
    if (redactor.recordings && text !== turn.text && turn.speaker !== "system")
      await this.recordings()
        .silence(call.id, turn.startMs - SILENCE_MARGIN_MS, turn.endMs + SILENCE_MARGIN_MS, {
          throughQueued: turn.speaker === "assistant",
        })
        .catch((error: unknown) =>
          this.deps.logger.error("a redacted turn could not be silenced in the recording", {
            callId: call.id,
            error,
          }),
        );
    const stored = await this.deps.db.prisma.callTurn.create({
      data: {
        callId: call.id,
        accountId: call.accountId,
        speaker: turn.speaker,
        text: storableText(text),
        heardText: storableText(heardText),
        interrupted: turn.interrupted,
        startMs: Math.round(turn.startMs),
        endMs: Math.round(turn.endMs),
        speechEndedAt: date(turn.timings?.speechEndedAt),
        transcriptAt: date(turn.timings?.transcriptAt),
        firstTokenAt: date(turn.timings?.firstTokenAt),
        firstAudioAt: date(turn.timings?.firstAudioAt),
        playedAt: date(turn.timings?.playedAt),
        functionCalls: redactor.json(turn.functionCalls ?? []) as unknown as Prisma.InputJsonValue,
      },
    });
    if (heardText) await this.calls.transcriptLine(call.id, { speaker: turn.speaker, text: heardText });
    this.deps.pubsub.publish("call:turn", call.accountId, { callId: call.id, turnId: stored.id });
  }

  /** A call's turns in order; the call must be the account's. */
  /**
   * What was said on the call so far, as the model's history: what the caller heard of each assistant
   * turn (hand-over markers left out).
   */
  async history(callId: number): Promise<{ role: "user" | "assistant"; content: string }[]> {
    const turns = await this.deps.db.prisma.callTurn.findMany({
      where: { callId },
      orderBy: { id: "asc" },
      select: { speaker: true, text: true, heardText: true },
    });
    return turns
      .filter((turn) => turn.speaker !== "system")
      .map((turn) => ({
        role: turn.speaker === "assistant" ? ("assistant" as const) : ("user" as const),
        content: turn.speaker === "assistant" ? turn.heardText : turn.text,
      }))
      .filter((turn) => turn.content.trim() !== "");
  }

  async list(accountId: number, callId: number): Promise<CallTurn[]> {
    return this.deps.db.prisma.callTurn.findMany({ where: { callId, accountId }, orderBy: { id: "asc" } });
  }

  async get(accountId: number, turnId: number): Promise<CallTurn | null> {
    return this.deps.db.prisma.callTurn.findFirst({ where: { id: turnId, accountId } });
  }

  async latency(accountId: number, callId: number): Promise<CallLatency> {
    const turns = (await this.list(accountId, callId)).filter(
      (turn) => turn.speaker === "assistant" && turn.speechEndedAt && turn.firstAudioAt,
    );
    const since = (turn: CallTurn, at: Date | null) =>
      at ? at.getTime() - turn.speechEndedAt!.getTime() : null;
    const values = (pick: (turn: CallTurn) => number | null) =>
      turns.map(pick).filter((value): value is number => value !== null);
    const firstAudio = values((turn) => since(turn, turn.firstAudioAt));
    return {
      turns: turns.length,
      firstAudioP50Ms: percentile(firstAudio, 50),
      firstAudioP95Ms: percentile(firstAudio, 95),
      transcriptP50Ms: percentile(
        values((turn) => since(turn, turn.transcriptAt)),
        50,
      ),
      firstTokenP50Ms: percentile(
        values((turn) => since(turn, turn.firstTokenAt)),
        50,
      ),
    };
  }
}

/** Nearest-rank percentile; null without values. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
