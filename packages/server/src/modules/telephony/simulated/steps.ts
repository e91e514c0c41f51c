import type { JobQueue } from "../../../jobs/index.ts";
import { LINE_PAUSES } from "./line.ts";

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

export type Step =
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

/** The simulated calls' steps as durable jobs, run by `run` when they are due. */
export class CallSteps {
  constructor(
    private readonly jobs: JobQueue,
    /** How much faster than real time call time runs. */
    private readonly clockSpeed: number,
    run: (callId: number, step: Step) => Promise<void>,
  ) {
    jobs.define(STEP_TASK, {
      run: (payload) => run(Number(payload.callId), payload as unknown as Step),
      maxAttempts: 5,
    });
  }

  /**
   * A call has one pending progress step (each replaces the last), once Voxgate hangs up one
   * hang-up under a key of its own, so that a step running meanwhile cannot replace it, and while
   * it is answered the lease of its line.
   */
  async schedule(callId: number, step: Step, callSeconds: number, realMs = 0) {
    const delayMs = (callSeconds * 1000) / this.clockSpeed + realMs;
    const key =
      step.step === "hang-up" || step.step === "caller-hang-up"
        ? `simulated-hang-up:${callId}`
        : step.step === "line-check"
          ? `simulated-line:${callId}`
          : `simulated-call:${callId}`;
    await this.jobs.enqueue(STEP_TASK, { callId, ...step }, { key, runAt: new Date(Date.now() + delayMs) });
  }

  hangUp(callId: number, farewell: string | null = null) {
    return this.schedule(callId, { step: "hang-up", farewell }, 0);
  }
}
