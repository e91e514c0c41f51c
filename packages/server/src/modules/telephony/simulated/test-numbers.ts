/** How a simulated callee answers. */
export type SimulatedOutcome =
  | "human"
  | "no-answer"
  | "busy"
  | "failed"
  | "voicemail"
  | "stays-on"
  | "interrupts"
  | "declines";

/**
 * The documented test numbers (docs/calls.md): North American numbers in the fictional 555-01xx
 * block whose last digits pick a fixed outcome; every other number is answered by a person.
 * Example: +14155550101 rings out. They decide transfer legs too (docs/transfers.md#phone-transfers).
 */
export const SIMULATED_TEST_NUMBERS: Readonly<Record<string, SimulatedOutcome>> = {
  "5550101": "no-answer",
  "5550102": "busy",
  "5550103": "failed",
  "5550104": "voicemail",
  /** A person who answers and stays on the line, silent, until Voxgate hangs up (max duration, balance, endCall). */
  "5550105": "stays-on",
  /** An impatient person, who talks over the assistant once they heard a few words of each of its turns. */
  "5550106": "interrupts",
  /** As a warm transfer's destination: answers, hears the briefing and declines (any other call: a person). */
  "5550107": "declines",
};

export function simulatedOutcome(to: string): SimulatedOutcome {
  if (!to.startsWith("+1") || to.length !== 12) return "human";
  return SIMULATED_TEST_NUMBERS[to.slice(-7)] ?? "human";
}
