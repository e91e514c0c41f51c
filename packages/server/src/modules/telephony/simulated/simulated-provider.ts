import { randomBytes } from "node:crypto";
import type { ServiceDeps } from "../../../deps.ts";
import type { JobQueue } from "../../../jobs/index.ts";
import { isFinal, toApiStatus } from "../../calls/call-status.ts";
import { EmbeddedNumbers } from "../embedded-numbers.ts";
import type {
  CallDesk,
  InboundDecision,
  InboundSimulator,
  ProviderCallEvent,
  TelephonyProvider,
} from "../provider.ts";
import type { SimulatedCallee } from "./callee.ts";
import { simulatedOutcome } from "./test-numbers.ts";

const STEP_TASK = "telephony:simulated-step";

/** Seconds of call time (divided by the clock speed in real time) between the simulated steps. */
export const SIMULATED_TIMING = {
  dial: 1,
  ring: 4,
  busy: 2,
  noAnswer: 30,
  turn: 5,
  /** A voicemail greeting, from the answer to its beep. */
  voicemailGreeting: 8,
} as const;

type Step =
  | { step: "dial" }
  | { step: "busy" }
  | { step: "no-answer" }
  | { step: "answer" }
  | { step: "connected" }
  | { step: "turn"; turn: number }
  | { step: "voicemail-beep" }
  | { step: "hang-up"; farewell: string | null };

/**
 * The embedded carrier: calls go through real statuses on a real (optionally faster) clock with no
 * telephony account. Each step is a durable job keyed by the call, so a restart resumes a call where
 * it was and a hang-up replaces whatever step was pending. The callee is a simulated person whose
 * outcome the dialled number decides (test-numbers.ts); once answered, it talks with the assistant
 * (callee.ts), and the conversation is the call's transcript.
 */
export class SimulatedTelephonyProvider
  extends EmbeddedNumbers
  implements TelephonyProvider, InboundSimulator
{
  constructor(
    private readonly deps: ServiceDeps,
    private readonly jobs: JobQueue,
    private readonly callee: SimulatedCallee,
    private readonly events: () => CallDesk,
  ) {
    super(deps.db.prisma);
    jobs.define(STEP_TASK, {
      run: (payload) => this.run(Number(payload.callId), payload as unknown as Step),
      maxAttempts: 5,
    });
  }

  async placeCall(request: { callId: number; from: string; to: string }) {
    const providerCallId = `SIM${randomBytes(16).toString("hex")}`;
    await this.schedule(request.callId, { step: "dial" }, SIMULATED_TIMING.dial);
    return { providerCallId };
  }

  /**
   * Someone calls one of the numbers: the calls service decides as for a carrier's webhook (its
   * refusal is what the caller hears before the line drops); an answered call starts with the
   * assistant's greeting and the caller (a simulated person) talks with it until they hang up.
   */
  async simulateIncomingCall(request: { from: string; to: string }): Promise<InboundDecision> {
    const providerCallId = `SIM${randomBytes(16).toString("hex")}`;
    const decision = await this.events().receiveInbound({ carrier: this.name, providerCallId, ...request });
    if (decision.accepted) await this.schedule(decision.callId, { step: "connected" }, 0);
    return decision;
  }

  async hangUp(call: { callId: number }, farewell?: string) {
    await this.schedule(call.callId, { step: "hang-up", farewell: farewell ?? null }, 0);
  }

  /**
   * A call has one pending progress step (each replaces the last) and, once Voxgate hangs up, one
   * hang-up under a key of its own, so that a step running meanwhile cannot replace it.
   */
  private async schedule(callId: number, step: Step, callSeconds: number) {
    const delayMs = (callSeconds * 1000) / this.deps.config.telephony.clockSpeed;
    const key = step.step === "hang-up" ? `simulated-hang-up:${callId}` : `simulated-call:${callId}`;
    await this.jobs.enqueue(STEP_TASK, { callId, ...step }, { key, runAt: new Date(Date.now() + delayMs) });
  }

  private async run(callId: number, step: Step) {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { clientPhoneNumber: true, status: true, requestedEnd: true },
    });
    // A step of an ended call (or a repeated job) has nothing to do; once Voxgate asked to hang
    // up, only the hang-up moves the call.
    if (!call || isFinal(toApiStatus(call.status))) return;
    if (call.requestedEnd && step.step !== "hang-up") return;
    const outcome = simulatedOutcome(call.clientPhoneNumber);
    const report = (event: Omit<ProviderCallEvent, "callId">) =>
      this.events().callEvent({ callId, ...event });
    switch (step.step) {
      case "dial":
        if (outcome === "failed") {
          await report({ status: "failed", reason: "The carrier could not connect the call (simulated)." });
          return;
        }
        await report({ status: "ringing" });
        if (outcome === "busy") await this.schedule(callId, { step: "busy" }, SIMULATED_TIMING.busy);
        else if (outcome === "no-answer")
          await this.schedule(callId, { step: "no-answer" }, SIMULATED_TIMING.noAnswer);
        else await this.schedule(callId, { step: "answer" }, SIMULATED_TIMING.ring);
        return;
      case "busy":
        await report({ status: "busy" });
        return;
      case "no-answer":
        await report({ status: "no-answer" });
        return;
      case "answer": {
        const machine = outcome === "voicemail";
        await report({ status: "in-progress" });
        if (machine) {
          // As Twilio's detection reports: a machine at once, then the end of its greeting.
          await this.say(callId, "customer", this.callee.voicemailGreeting());
          await this.schedule(callId, { step: "voicemail-beep" }, SIMULATED_TIMING.voicemailGreeting);
          await this.events().answeringMachine({ callId, verdict: "machine_start" });
          return;
        }
        await this.events().answeringMachine({ callId, verdict: "human" });
        await this.converse(callId, outcome === "stays-on");
        return;
      }
      // An incoming call, in progress from its arrival; of the test numbers only stays-on applies to a caller.
      case "connected":
        await this.converse(callId, outcome === "stays-on");
        return;
      case "voicemail-beep":
        await this.events().answeringMachine({ callId, verdict: "machine_end_beep" });
        return;
      case "turn": {
        const exchange = await this.callee.exchange(callId, step.turn);
        await this.say(callId, "customer", exchange.customer);
        if (exchange.assistant) await this.say(callId, "assistant", exchange.assistant);
        if (exchange.finished) await report({ status: "completed" });
        else await this.schedule(callId, { step: "turn", turn: step.turn + 1 }, SIMULATED_TIMING.turn);
        return;
      }
      case "hang-up":
        if (call.status === "in_progress") {
          if (step.farewell) await this.say(callId, "assistant", step.farewell);
          await report({ status: "completed" });
        } else {
          await report({ status: "failed", reason: "Hung up before the call was answered." });
        }
        return;
    }
  }

  /** The assistant opens; someone who stays on the line says nothing more, until Voxgate ends the call. */
  private async converse(callId: number, staysOn: boolean) {
    await this.say(callId, "assistant", await this.callee.assistantOpening(callId));
    if (!staysOn) await this.schedule(callId, { step: "turn", turn: 1 }, SIMULATED_TIMING.turn);
  }

  private say(callId: number, speaker: "assistant" | "customer", text: string) {
    return this.events().transcriptLine(callId, { speaker, text });
  }
}
