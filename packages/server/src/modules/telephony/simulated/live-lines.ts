import { randomBytes } from "node:crypto";
import type { ServiceDeps } from "../../../deps.ts";
import { type MediaStreamHandler, TextMediaStream } from "../../media/index.ts";
import { primitiveVariables } from "../../message-pipeline/index.ts";
import type { CallDesk } from "../provider.ts";
import type { BackgroundWork } from "./background.ts";
import type { SimulatedCallee, TestCallers } from "./callee.ts";
import { type FarEnd, IMPATIENT_AFTER_WORDS, SimulatedLine } from "./line.ts";
import type { CallSteps } from "./steps.ts";
import type { SimulatedOutcome } from "./test-numbers.ts";

/**
 * A live line is leased by the instance carrying it, in real time: renewed every `renewMs`, it
 * lapses `leaseMs` after the last renewal, and the call then ends (its conversation lived in that
 * instance's memory). Long enough that a busy event loop does not lose a line.
 */
export const SIMULATED_LINE_LEASE = { leaseMs: 8_000, renewMs: 2_000 } as const;

/** Why a call whose line was lost ends (`failed`, so that a campaign tries the lead again). */
export const LINE_LOST_REASON = "The simulated line was lost: the server carrying the conversation stopped.";

/** What a lease check knows of its call. */
export interface LeasedCall {
  status: string;
  requestedEnd: string | null;
  startedAt: Date | null;
  maxDuration: number;
  transferState: string;
}

/**
 * The answered calls' lines this instance carries, each under a lease (`SIMULATED_LINE_LEASE`) kept
 * by a durable line-check step: a line whose instance stopped ends its call `failed`
 * (`LINE_LOST_REASON`).
 */
export class LiveLines {
  /** The lines this instance carries, by call. */
  private readonly lines = new Map<number, SimulatedLine>();
  private readonly leases = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      callee: SimulatedCallee;
      desk: () => CallDesk;
      /** The voice engine, given each answered call's text stream. */
      media: () => MediaStreamHandler;
      /** The callers of agent tests' calls (their scenarios'), read when each call connects. */
      testCallers: () => TestCallers;
    },
    private readonly steps: CallSteps,
    private readonly background: BackgroundWork,
  ) {}

  /** The call's stream goes to the voice engine; its far end starts once the engine listens. */
  async connect(callId: number, farEnd: FarEnd, outcome: SimulatedOutcome) {
    if (this.lines.has(callId)) return;
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { accountId: true, type: true, variables: true, status: true, test: true },
    });
    if (call?.status !== "in_progress") return;
    const testCaller = call.test ? await this.parts.testCallers()(callId) : null;
    // A test call whose scenario result is gone (its run deleted) has nobody to talk: it ends.
    if (call.test && !testCaller) return this.steps.hangUp(callId);
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
        this.background.run({ callId }, "the simulated caller could not hang up", () =>
          this.steps.schedule(callId, { step: "caller-hang-up" }, 0),
        ),
    });
    this.lines.set(callId, line);
    // The engine closing the stream itself (a call it will not carry) ends the call, as Twilio
    // hangs up once a `<Connect>` ends.
    stream.onClose(() => {
      if (this.lines.get(callId) !== line) return;
      this.drop(callId);
      this.background.run({ callId }, "could not end a simulated call after its stream closed", () =>
        this.steps.hangUp(callId),
      );
    });
    await this.renewLease(callId);
    const renewal = setInterval(
      () =>
        this.background.run({ callId }, "could not renew a simulated line's lease", () =>
          this.renewLine(callId),
        ),
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

  /** Closes the stream of a line this instance carries, once its call's end was reported. */
  close(callId: number) {
    const line = this.lines.get(callId);
    if (!line) return;
    this.drop(callId);
    line.stream.close();
  }

  /** Forgets every line: they die with the process, their leases lapse and end their calls. */
  dropAll() {
    for (const callId of [...this.lines.keys()]) this.drop(callId);
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
    return this.steps.schedule(
      callId,
      { step: "line-check", lapsesAt, deferred },
      0,
      SIMULATED_LINE_LEASE.leaseMs,
    );
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
    this.close(callId);
  }

  /**
   * A line's lease lapsed: the instance carrying it stopped (or this one runs it: renewed). A
   * hang-up it had started is finished; otherwise the call ends `failed`. A call whose max duration
   * fell before the lapse ends by its own timer, as it would have: after a long restart both jobs
   * are overdue and the queue may run them in either order, so the lapse waits one more lease (once:
   * a timer that never comes does not keep a lost line open).
   */
  async check(callId: number, call: LeasedCall, check: { lapsesAt?: number; deferred?: boolean }) {
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
    await this.parts
      .desk()
      .callEvent(
        call.requestedEnd
          ? { callId, status: "completed" }
          : { callId, status: "failed", reason: LINE_LOST_REASON },
      );
  }
}
