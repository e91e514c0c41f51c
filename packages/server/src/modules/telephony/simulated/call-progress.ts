import type { ServiceDeps } from "../../../deps.ts";
import { isFinal, toApiStatus } from "../../calls/call-status.ts";
import type { CallDesk, ProviderCallEvent, TransferDesk, TransferMissOutcome } from "../provider.ts";
import type { LiveLines } from "./live-lines.ts";
import { type CallSteps, SIMULATED_TIMING, type Step } from "./steps.ts";
import { simulatedOutcome } from "./test-numbers.ts";

/**
 * What each step of a simulated call does: the statuses a carrier reports, the outcome the dialled
 * number decides (test-numbers.ts), the answered call's line, a transfer leg's end.
 */
export class CallProgress {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      desk: () => CallDesk;
      /** Where transfer legs' outcomes go: the transfers service. */
      transfers: () => TransferDesk;
    },
    private readonly steps: CallSteps,
    private readonly lines: LiveLines,
  ) {}

  async run(callId: number, step: Step) {
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
    if (step.step === "line-check") return this.lines.check(callId, call, step);
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
        if (outcome === "busy") await this.steps.schedule(callId, { step: "busy" }, SIMULATED_TIMING.busy);
        else if (outcome === "no-answer")
          await this.steps.schedule(callId, { step: "no-answer" }, SIMULATED_TIMING.noAnswer);
        else
          await this.steps.schedule(
            callId,
            { step: "answer", warm: step.warm === true },
            SIMULATED_TIMING.ring,
          );
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
          await this.steps.schedule(
            call.transferredFromCallId,
            { step: "transfer-end", legCallId: callId },
            SIMULATED_TIMING.transferTalk,
          );
          return;
        }
        if (outcome === "voicemail") {
          // As Twilio's asynchronous detection reports: the stream at once, a machine soon after,
          // then the end of its greeting.
          await this.lines.connect(callId, "machine", outcome);
          await this.steps.schedule(callId, { step: "voicemail-beep" }, SIMULATED_TIMING.voicemailGreeting);
          await this.parts.desk().answeringMachine({ callId, verdict: "machine_start" });
          return;
        }
        await this.parts.desk().answeringMachine({ callId, verdict: "human" });
        await this.lines.connect(callId, outcome === "stays-on" ? "silent" : "person", outcome);
        return;
      }
      // An incoming call, in progress from its arrival; of the test numbers only stays-on applies to a caller.
      case "connected":
        await this.lines.connect(callId, outcome === "stays-on" ? "silent" : "person", outcome);
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
        this.lines.close(callId);
        // A leg hung up (its balance ran out) ends the transferred caller's call with it.
        if (call.transferredFromCallId !== null && call.status === "in_progress")
          await this.report(call.transferredFromCallId, { status: "completed" });
        return;
      // As Twilio's stream stops before its status callback: the end is the caller's.
      case "caller-hang-up":
        await this.parts.desk().customerHungUp(callId);
        await report({ status: "completed" });
        this.lines.close(callId);
        return;
    }
  }

  private report(callId: number, event: Omit<ProviderCallEvent, "callId">) {
    return this.parts.desk().callEvent({ callId, ...event });
  }

  /** A leg was not answered: the caller, back with the assistant, gets a new line (once). */
  private async legMissed(legCallId: number, outcome: TransferMissOutcome) {
    const back = await this.parts.transfers().transferMissed(legCallId, outcome);
    if (back) await this.steps.schedule(back.callId, { step: "connected" }, 0);
  }

  /** The transferred conversation is over: both calls end. */
  private async endTransfer(callId: number, legCallId: number) {
    await this.report(legCallId, { status: "completed" });
    await this.report(callId, { status: "completed" });
  }

  /** What the carrier says itself (a farewell) is the assistant's last line in the transcript. */
  private say(callId: number, text: string) {
    return this.parts.desk().transcriptLine(callId, { speaker: "assistant", text });
  }
}
