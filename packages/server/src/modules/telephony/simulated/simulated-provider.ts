import { randomBytes } from "node:crypto";
import type { Lifecycle, ServiceDeps } from "../../../deps.ts";
import { AppError } from "../../../errors.ts";
import type { JobQueue } from "../../../jobs/index.ts";
import {
  AT_CAPACITY_REASON,
  AT_CAPACITY_WORDS,
  type MediaCapacity,
  type MediaStreamHandler,
} from "../../media/index.ts";
import { EmbeddedNumbers } from "../embedded-numbers.ts";
import type {
  CallDesk,
  InboundDecision,
  InboundSimulator,
  TelephonyProvider,
  TestCallCarrier,
  TextDesk,
  TextSimulator,
  TransferDesk,
} from "../provider.ts";
import { BackgroundWork } from "./background.ts";
import { CallProgress } from "./call-progress.ts";
import type { SimulatedCallee, TestCallers } from "./callee.ts";
import { LiveLines } from "./live-lines.ts";
import { CallSteps, SIMULATED_TIMING } from "./steps.ts";
import { simulatedOutcome } from "./test-numbers.ts";

/**
 * The embedded carrier: calls go through real statuses on a real (optionally faster) clock with no
 * telephony account. Until the answer each step is a durable job keyed by the call (steps.ts), so a
 * restart resumes a ringing call where it was and a hang-up replaces whatever step was pending. The
 * callee is a simulated person whose outcome the dialled number decides (test-numbers.ts,
 * call-progress.ts). Once answered, the call's media is a `TextMediaStream` handed to the voice
 * engine as Twilio hands it a Media Stream: the assistant's side of the conversation is the
 * engine's, the far end's is `SimulatedLine`'s. The line lives in this instance's memory, under a
 * lease (live-lines.ts): a line whose instance stopped ends its call `failed`.
 */
export class SimulatedTelephonyProvider
  extends EmbeddedNumbers
  implements TelephonyProvider, InboundSimulator, TextSimulator, TestCallCarrier, Lifecycle
{
  private readonly background: BackgroundWork;
  private readonly steps: CallSteps;
  private readonly lines: LiveLines;
  private readonly progress: CallProgress;

  constructor(
    deps: ServiceDeps,
    private readonly parts: {
      jobs: JobQueue;
      callee: SimulatedCallee;
      desk: () => CallDesk;
      /** The voice engine, given each answered call's text stream. */
      media: () => MediaStreamHandler;
      capacity: MediaCapacity;
      /** Where delivery reports and incoming texts go: the texts service. */
      texts: () => TextDesk;
      /** Where transfer legs' outcomes go: the transfers service. */
      transfers: () => TransferDesk;
      /** The callers of agent tests' calls (their scenarios'), read when each call connects. */
      testCallers: () => TestCallers;
    },
  ) {
    super(deps.db.prisma);
    this.background = new BackgroundWork(deps.logger);
    // A step runs once it is due, never while this constructor runs: `progress` is there by then.
    this.steps = new CallSteps(parts.jobs, deps.config.telephony.clockSpeed, (callId, step) =>
      this.progress.run(callId, step),
    );
    this.lines = new LiveLines(deps, parts, this.steps, this.background);
    this.progress = new CallProgress(deps, parts, this.steps, this.lines);
  }

  start(): void {}

  /** The lines die with the process: their leases lapse and end their calls on another start. */
  async stop(): Promise<void> {
    this.lines.dropAll();
    await this.background.settled();
  }

  async placeCall(request: { callId: number; from: string; to: string }) {
    const providerCallId = `SIM${randomBytes(16).toString("hex")}`;
    await this.steps.schedule(request.callId, { step: "dial" }, SIMULATED_TIMING.dial);
    return { providerCallId };
  }

  /**
   * Someone calls one of the numbers: the calls service decides as for a carrier's webhook (its
   * refusal is what the caller hears before the line drops; an instance at capacity refuses at the
   * door as for Twilio); an answered call is connected to the voice engine, and the caller (a
   * simulated person) talks with the assistant until they hang up.
   */
  async simulateIncomingCall(request: { from: string; to: string }): Promise<InboundDecision> {
    const providerCallId = `SIM${randomBytes(16).toString("hex")}`;
    const decision = await this.parts.desk().receiveInbound({
      carrier: this.name,
      providerCallId,
      ...request,
      ...(this.parts.capacity.full()
        ? { refusal: { reason: AT_CAPACITY_REASON, words: AT_CAPACITY_WORDS } }
        : {}),
    });
    if (decision.accepted) await this.steps.schedule(decision.callId, { step: "connected" }, 0);
    return decision;
  }

  /**
   * The documented test numbers decide a text's fate as a call's (docs/sms.md): one whose calls fail
   * is refused at once; one that rings out is reported undelivered (its handset unreachable); any
   * other is reported sent, then delivered, after the carrier accepted it.
   */
  async sendSms(request: { textId: number; to: string }) {
    const outcome = simulatedOutcome(request.to);
    if (outcome === "failed") {
      throw new AppError(
        "UPSTREAM_FAILED",
        "The telephony provider refused the request: the number cannot receive texts.",
      );
    }
    const providerMessageId = `SIMSM${randomBytes(16).toString("hex")}`;
    this.background.run({ textId: request.textId }, "simulated text delivery failed", async () => {
      const texts = this.parts.texts();
      await texts.textEvent({ textId: request.textId, providerMessageId, status: "sent" });
      await texts.textEvent(
        outcome === "no-answer"
          ? {
              textId: request.textId,
              status: "undelivered",
              errorCode: "30003",
              errorMessage: "Unreachable destination handset.",
            }
          : { textId: request.textId, status: "delivered" },
      );
    });
    return { providerMessageId };
  }

  async simulateIncomingText(request: { from: string; to: string; body: string }) {
    return this.parts.texts().receiveText({
      carrier: this.name,
      providerMessageId: `SIMSM${randomBytes(16).toString("hex")}`,
      ...request,
    });
  }

  /**
   * The assistant leaves (the caller's line is let go without ending the call: held, on a warm
   * transfer) and the leg rings the destination, whose outcome the test numbers decide as for any
   * call (a SIP URI answers): an answer connects the caller, who talks with the person for
   * `transferTalk`; anything else brings the caller back to the voice engine on a new line. On a warm
   * transfer the person hears the briefing and accepts, except at the test number that declines.
   */
  async transferCall(request: { callId: number; legCallId: number; briefing?: string }) {
    this.lines.close(request.callId);
    await this.steps.schedule(
      request.legCallId,
      { step: "dial", ...(request.briefing ? { warm: true } : {}) },
      SIMULATED_TIMING.dial,
    );
    // The leg's steps are keyed by its call: a hang-up reaches it without a carrier id.
    return { legProviderCallId: null };
  }

  /**
   * An agent test's call, recorded in progress by the calls service, connects as an incoming call
   * does: a durable step, so that a call whose step had not run yet connects after a restart.
   */
  async connectTestCall(callId: number) {
    await this.steps.schedule(callId, { step: "connected" }, 0);
  }

  async hangUp(call: { callId: number }, farewell?: string) {
    await this.steps.hangUp(call.callId, farewell ?? null);
  }
}
