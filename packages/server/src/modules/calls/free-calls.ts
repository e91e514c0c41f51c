import type { Config } from "../../env.ts";
import type { AssistantMode } from "../../generated/prisma/client.ts";
import { chatModelConfigured } from "../providers/model-setup.ts";
import { WEB_CARRIER } from "./call-hang-up.ts";

/** `providerName` of the embedded carrier, whose calls are a simulation (telephony/simulated). */
const SIMULATED_CARRIER = "simulated";

/**
 * Whether a call about to be recorded is answered by the no-model fallback, and so costs nothing,
 * like a chat answered by it (docs/billing.md#calls-answered-without-a-model): the deployment has no
 * chat model, and the call's assistant side is the reply engine's, on a line with no carrier to pay:
 * the simulated carrier (its calls are text, always answered by the pipeline) or a browser web call
 * in pipeline mode (multimodal and dualplex calls are answered by a realtime speech model). Such a
 * call has no first minute reserved, hence no ledger entry at all: the settlement charges no minute
 * of a call whose first was not reserved (call-settlement.ts), and its `totalCost` stays 0. Calls
 * on a real carrier are charged whatever answers them: the carrier's minutes are paid.
 */
export function answeredByFallback(
  config: Pick<Config, "openai">,
  call: { carrier: string; mode: AssistantMode | null },
): boolean {
  if (chatModelConfigured(config.openai)) return false;
  if (call.carrier === SIMULATED_CARRIER) return true;
  return call.carrier === WEB_CARRIER && call.mode === "pipeline";
}
