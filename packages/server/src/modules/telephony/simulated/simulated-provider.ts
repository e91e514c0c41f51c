import { randomBytes } from "node:crypto";
import type { Lifecycle, ServiceDeps } from "../../../deps.ts";
import { AppError } from "../../../errors.ts";
import type { JobQueue } from "../../../jobs/index.ts";
import { isFinal, toApiStatus } from "../../calls/call-status.ts";
import {
  AT_CAPACITY_REASON,
  AT_CAPACITY_WORDS,
  type MediaCapacity,
  type MediaStreamHandler,
  TextMediaStream,
} from "../../media/index.ts";
import { primitiveVariables } from "../../message-pipeline/index.ts";
import { EmbeddedNumbers } from "../embedded-numbers.ts";
import type {
  CallDesk,
  InboundDecision,
  InboundSimulator,
  ProviderCallEvent,
  TelephonyProvider,
  TestCallCarrier,
  TextDesk,
  TextSimulator,
  TransferDesk,
  TransferMissOutcome,
} from "../provider.ts";
import type { SimulatedCallee, TestCallers } from "./callee.ts";
import { type FarEnd, IMPATIENT_AFTER_WORDS, LINE_PAUSES, SimulatedLine } from "./line.ts";
import { type SimulatedOutcome, simulatedOutcome } from "./test-numbers.ts";

const STEP_TASK = "telephony:simulated-step";

/** Seconds of call time (divided by the clock speed in real time) between the simulated steps. */
export const SIMULATED_TIMING = {
  dial: 1,
  ring: 4,
  busy: 2,
  noAnswer: 30,
  /** A voicemail greeting, from the answer to its beep. */
  voicemailGreeting: 8,
  /** A transferred caller's conversation with the person who answered, until both hang up. */
  transferTalk: 45,
  ...LINE_PAUSES,
} as const;

/**
 * A live line is leased by the instance carrying it, in real time: renewed every `renewMs`, it
 * lapses `leaseMs` after the last renewal, and the call then ends (its conversation lived in that
 * instance's memory). Long enough that a busy event loop does not lose a line.
 */
export const SIMULATED_LINE_LEASE = { leaseMs: 8_000, renewMs: 2_000 } as const;

/** Why a call whose line was lost ends (`failed`, so that a campaign tries the lead again). */
export const LINE_LOST_REASON = "The simulated line was lost: the server carrying the conversation stopped.";

type Step =
  /** `warm`: a warm transfer's leg, whose person hears the briefing and decides. */
  | { step: "dial"; warm?: boolean }
  | { step: "busy" }
  | { step: "no-answer" }
  | { step: "answer"; warm?: boolean }
  | { step: "connected" }
  | { step: "voicemail-beep" }
  /** `lapsesAt`: when the lease being checked runs out (epoch ms); `deferred`: the check was put off once. */
  | { step: "line-check"; lapsesAt?: number; deferred?: boolean }
  | { step: "hang-up"; farewell: string | null }
  | { step: "caller-hang-up" }
  /** The transferred caller and the person who answered hang up (a step of the caller's call). */
  | { step: "transfer-end"; legCallId: number };

/**
 * The embedded carrier: calls go through real statuses on a real (optionally faster) clock with no
 * telephony account. Until the answer each step is a durable job keyed by the call, so a restart
 * resumes a ringing call where it was and a hang-up replaces whatever step was pending. The callee is
 * a simulated person whose outcome the dialled number decides (test-numbers.ts). Once answered, the
 * call's media is a `TextMediaStream` handed to the voice engine as Twilio hands it a Media Stream:
 * the assistant's side of the conversation is the engine's, the far end's is `SimulatedLine`'s. The
 * line lives in this instance's memory, under a lease (`SIMULATED_LINE_LEASE`): a line whose
 * instance stopped ends its call `failed` (`LINE_LOST_REASON`).
 */
export class SimulatedTelephonyProvider
  extends EmbeddedNumbers
  implements TelephonyProvider, InboundSimulator, TextSimulator, TestCallCarrier, Lifecycle
{
  /** The lines this instance carries, by call. */
  private readonly lines = new Map<number, SimulatedLine>();
  private readonly leases = new Map<number, NodeJS.Timeout>();
  /** What the lines do outside jobs (their calls' ends, lease renewals): a stop waits for it. */
  private readonly ending = new Set<Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
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
    parts.jobs.define(STEP_TASK, {
      run: (payload) => this.run(Number(payload.callId), payload as unknown as Step),
      maxAttempts: 5,
    });
  }

  start(): void {}

  /** The lines die with the process: their leases lapse and end their calls on another start. */
  async stop(): Promise<void> {
    for (const callId of [...this.lines.keys()]) this.drop(callId);
    await Promise.allSettled([...this.ending]);
  }

  /** Runs a line's (or a text's) work outside any job, kept until it settled; failures are logged. */
  private background(
    subject: { callId: number } | { textId: number },
    what: string,
    work: () => Promise<void>,
  ) {
    const done = work()
      .catch((error: unknown) => this.deps.logger.error(what, { ...subject, error }))
      .finally(() => this.ending.delete(done));
    this.ending.add(done);
  }

  async placeCall(request: { callId: number; from: string; to: string }) {
    const providerCallId = `SIM${randomBytes(16).toString("hex")}`;
    await this.schedule(request.callId, { step: "dial" }, SIMULATED_TIMING.dial);
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
    if (decision.accepted) await this.schedule(decision.callId, { step: "connected" }, 0);
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
    this.background({ textId: request.textId }, "simulated text delivery failed", async () => {
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
    this.closeLine(request.callId);
    await this.schedule(
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
    await this.schedule(callId, { step: "connected" }, 0);
  }

  async hangUp(call: { callId: number }, farewell?: string) {
    await this.schedule(call.callId, { step: "hang-up", farewell: farewell ?? null }, 0);
  }

  /**
   * A call has one pending progress step (each replaces the last), once Voxgate hangs up one
   * hang-up under a key of its own, so that a step running meanwhile cannot replace it, and while
   * it is answered the lease of its line.
   */
  private async schedule(callId: number, step: Step, callSeconds: number, realMs = 0) {
    const delayMs = (callSeconds * 1000) / this.deps.config.telephony.clockSpeed + realMs;
    const key =
      step.step === "hang-up" || step.step === "caller-hang-up"
        ? `simulated-hang-up:${callId}`
        : step.step === "line-check"
          ? `simulated-line:${callId}`
          : `simulated-call:${callId}`;
    await this.parts.jobs.enqueue(
      STEP_TASK,
      { callId, ...step },
      { key, runAt: new Date(Date.now() + delayMs) },
    );
  }

  private report(callId: number, event: Omit<ProviderCallEvent, "callId">) {
    return this.parts.desk().callEvent({ callId, ...event });
  }

  private async run(callId: number, step: Step) {
    // Ends the leg whatever became of the caller's call meanwhile.
    if (step.step === "transfer-end") return this.endTransfer(callId, step.legCallId);
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: {
        clientPhoneNumber: true,
        status: true,
        requestedEnd: true,
        startedAt: true,
        maxDuration: true,
        transferState: true,
        transferredFromCallId: true,
      },
    });
    // A step of an ended call (or a repeated job) has nothing to do; once Voxgate asked to hang
    // up, only the hang-up moves the call (or a lapsed lease, which finishes it).
    if (!call || isFinal(toApiStatus(call.status))) return;
    if (step.step === "line-check") return this.checkLine(callId, call, step);
    if (call.requestedEnd && step.step !== "hang-up" && step.step !== "caller-hang-up") return;
    const outcome = simulatedOutcome(call.clientPhoneNumber);
    const report = (event: Omit<ProviderCallEvent, "callId">) => this.report(callId, event);
    switch (step.step) {
      case "dial":
        if (outcome === "failed") {
          await report({ status: "failed", reason: "The carrier could not connect the call (simulated)." });
          if (call.transferredFromCallId !== null) await this.legMissed(callId, "failed");
          return;
        }
        await report({ status: "ringing" });
        if (outcome === "busy") await this.schedule(callId, { step: "busy" }, SIMULATED_TIMING.busy);
        else if (outcome === "no-answer")
          await this.schedule(callId, { step: "no-answer" }, SIMULATED_TIMING.noAnswer);
        else await this.schedule(callId, { step: "answer", warm: step.warm === true }, SIMULATED_TIMING.ring);
        return;
      case "busy":
        await report({ status: "busy" });
        if (call.transferredFromCallId !== null) await this.legMissed(callId, "busy");
        return;
      case "no-answer":
        await report({ status: "no-answer" });
        if (call.transferredFromCallId !== null) await this.legMissed(callId, "no-answer");
        return;
      case "answer": {
        await report({ status: "in-progress" });
        if (call.transferredFromCallId !== null) {
          if (step.warm && outcome === "declines") {
            // Heard the briefing, said no and hung up: an answered (billed) leg that connected nobody.
            await report({ status: "completed" });
            await this.legMissed(callId, "declined");
            return;
          }
          // The person who answered talks with the caller, not with an assistant.
          await this.parts.transfers().transferAnswered(callId);
          await this.schedule(
            call.transferredFromCallId,
            { step: "transfer-end", legCallId: callId },
            SIMULATED_TIMING.transferTalk,
          );
          return;
        }
        if (outcome === "voicemail") {
          // As Twilio's asynchronous detection reports: the stream at once, a machine soon after,
          // then the end of its greeting.
          await this.connect(callId, "machine", outcome);
          await this.schedule(callId, { step: "voicemail-beep" }, SIMULATED_TIMING.voicemailGreeting);
          await this.parts.desk().answeringMachine({ callId, verdict: "machine_start" });
          return;
        }
        await this.parts.desk().answeringMachine({ callId, verdict: "human" });
        await this.connect(callId, outcome === "stays-on" ? "silent" : "person", outcome);
        return;
      }
      // An incoming call, in progress from its arrival; of the test numbers only stays-on applies to a caller.
      case "connected":
        await this.connect(callId, outcome === "stays-on" ? "silent" : "person", outcome);
        return;
      case "voicemail-beep":
        await this.parts.desk().answeringMachine({ callId, verdict: "machine_end_beep" });
        return;
      // Reported before the line's stream closes: the engine then sees a call already ended, not a
      // caller hanging up on their own.
      case "hang-up":
        if (call.status === "in_progress") {
          if (step.farewell) await this.say(callId, step.farewell);
          await report({ status: "completed" });
        } else {
          await report({ status: "failed", reason: "Hung up before the call was answered." });
        }
        this.closeLine(callId);
        // A leg hung up (its balance ran out) ends the transferred caller's call with it.
        if (call.transferredFromCallId !== null && call.status === "in_progress")
          await this.report(call.transferredFromCallId, { status: "completed" });
        return;
      // As Twilio's stream stops before its status callback: the end is the caller's.
      case "caller-hang-up":
        await this.parts.desk().customerHungUp(callId);
        await report({ status: "completed" });
        this.closeLine(callId);
        return;
    }
  }

  /** The call's stream goes to the voice engine; its far end starts once the engine listens. */
  private async connect(callId: number, farEnd: FarEnd, outcome: SimulatedOutcome) {
    if (this.lines.has(callId)) return;
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { accountId: true, type: true, variables: true, status: true, test: true },
    });
    if (call?.status !== "in_progress") return;
    const testCaller = call.test ? await this.parts.testCallers()(callId) : null;
    // A test call whose scenario result is gone (its run deleted) has nobody to talk: it ends.
    if (call.test && !testCaller) return this.hangUp({ callId });
    const stream = new TextMediaStream(callId, `SIMLINE${randomBytes(8).toString("hex")}`);
    const line = new SimulatedLine(stream, {
      callee: this.parts.callee,
      call: {
        accountId: call.accountId,
        inbound: call.type === "inbound",
        variables: primitiveVariables(call.variables),
        ...(testCaller ? { testCaller } : {}),
      },
      farEnd,
      interruptAfterWords: outcome === "interrupts" ? IMPATIENT_AFTER_WORDS : null,
      clockSpeed: this.deps.config.telephony.clockSpeed,
      logger: this.deps.logger,
      hangUp: () =>
        this.background({ callId }, "the simulated caller could not hang up", () =>
          this.schedule(callId, { step: "caller-hang-up" }, 0),
        ),
    });
    this.lines.set(callId, line);
    // The engine closing the stream itself (a call it will not carry) ends the call, as Twilio
    // hangs up once a `<Connect>` ends.
    stream.onClose(() => {
      if (this.lines.get(callId) !== line) return;
      this.drop(callId);
      this.background({ callId }, "could not end a simulated call after its stream closed", () =>
        this.hangUp({ callId }),
      );
    });
    await this.renewLease(callId);
    const renewal = setInterval(
      () =>
        this.background({ callId }, "could not renew a simulated line's lease", () => this.renewLine(callId)),
      SIMULATED_LINE_LEASE.renewMs,
    );
    renewal.unref();
    this.leases.set(callId, renewal);
    try {
      await this.parts.media().handle(stream);
    } catch (error) {
      // The step runs again (a durable job) and connects anew.
      this.drop(callId);
      throw error;
    }
    if (this.lines.get(callId) === line) line.start();
  }

  /** A leg was not answered: the caller, back with the assistant, gets a new line (once). */
  private async legMissed(legCallId: number, outcome: TransferMissOutcome) {
    const back = await this.parts.transfers().transferMissed(legCallId, outcome);
    if (back) await this.schedule(back.callId, { step: "connected" }, 0);
  }

  /** The transferred conversation is over: both calls end. */
  private async endTransfer(callId: number, legCallId: number) {
    await this.report(legCallId, { status: "completed" });
    await this.report(callId, { status: "completed" });
  }

  /** Closes the stream of a line this instance carries, once its call's end was reported. */
  private closeLine(callId: number) {
    const line = this.lines.get(callId);
    if (!line) return;
    this.drop(callId);
    line.stream.close();
  }

  /** Forgets a line: its far end and clock stop, its lease is no longer renewed. */
  private drop(callId: number) {
    this.lines.get(callId)?.stop();
    this.lines.delete(callId);
    clearInterval(this.leases.get(callId));
    this.leases.delete(callId);
  }

  private renewLease(callId: number, deferred = false) {
    const lapsesAt = Date.now() + SIMULATED_LINE_LEASE.leaseMs;
    return this.schedule(callId, { step: "line-check", lapsesAt, deferred }, 0, SIMULATED_LINE_LEASE.leaseMs);
  }

  /** Renews a live line's lease; a call another instance ended (a hang-up step ran there) closes its line here. */
  private async renewLine(callId: number) {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { status: true },
    });
    const line = this.lines.get(callId);
    if (!line) return;
    if (call?.status === "in_progress") return this.renewLease(callId);
    this.closeLine(callId);
  }

  /**
   * A line's lease lapsed: the instance carrying it stopped (or this one runs it: renewed). A
   * hang-up it had started is finished; otherwise the call ends `failed`. A call whose max duration
   * fell before the lapse ends by its own timer, as it would have: after a long restart both jobs
   * are overdue and the queue may run them in either order, so the lapse waits one more lease (once:
   * a timer that never comes does not keep a lost line open).
   */
  private async checkLine(
    callId: number,
    call: {
      status: string;
      requestedEnd: string | null;
      startedAt: Date | null;
      maxDuration: number;
      transferState: string;
    },
    check: { lapsesAt?: number; deferred?: boolean },
  ) {
    if (this.lines.has(callId)) return this.renewLease(callId);
    // A caller being transferred has no line here by design: the transfer's steps end the call.
    if (
      call.status !== "in_progress" ||
      call.transferState === "dialing" ||
      call.transferState === "connected"
    )
      return;
    if (!check.deferred && !call.requestedEnd && call.startedAt && call.maxDuration > 0) {
      const maxDurationAt =
        call.startedAt.getTime() + (call.maxDuration * 1000) / this.deps.config.telephony.clockSpeed;
      if (maxDurationAt <= (check.lapsesAt ?? Date.now())) return this.renewLease(callId, true);
    }
    this.deps.logger.warn("simulated line lost", { callId });
    await this.report(
      callId,
      call.requestedEnd ? { status: "completed" } : { status: "failed", reason: LINE_LOST_REASON },
    );
  }

  /** What the carrier says itself (a farewell) is the assistant's last line in the transcript. */
  private say(callId: number, text: string) {
    return this.parts.desk().transcriptLine(callId, { speaker: "assistant", text });
  }
}
