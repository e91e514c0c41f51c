import type { Config } from "../../env.ts";
import { chatModelConfigured } from "../providers/model-setup.ts";

/** `providerName` of the embedded carrier, whose calls are a simulation (telephony/simulated). */
const SIMULATED_CARRIER = "simulated";

/**
 * Whether a call about to be recorded is answered by the no-model fallback with nothing else to pay
 * for, and so costs nothing, like a chat answered by it (docs/calls.md#calls-answered-without-a-model):
 * the deployment has no chat model and the simulated carrier carries the call (text turns: no
 * carrier, no speech; its assistant side is always the reply engine's, here the fallback). Such a
 * call has no first minute reserved, hence no ledger entry at all: the settlement charges no minute
 * of a call whose first was not reserved (call-settlement.ts), and its `totalCost` stays 0. Calls on
 * a real carrier and browser web calls are charged whatever answers them: the carrier's minutes and
 * the speech services' are paid either way.
 */
export function answeredByFallback(config: Pick<Config, "openai">, call: { carrier: string }): boolean {
  return !chatModelConfigured(config.openai) && call.carrier === SIMULATED_CARRIER;
}
