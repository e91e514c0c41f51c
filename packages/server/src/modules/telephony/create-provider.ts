import type { ServiceDeps } from "../../deps.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { ReplyEngine } from "../message-pipeline/index.ts";
import type { CallDesk, InboundSimulator, TelephonyProvider } from "./provider.ts";
import { SimulatedCallee } from "./simulated/callee.ts";
import { SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";
import { TwilioTelephonyProvider } from "./twilio/twilio-provider.ts";
import { TwilioWebhooks } from "./twilio/twilio-webhooks.ts";

/**
 * The carrier VOXGATE_TELEPHONY names, with Twilio's webhooks when it is Twilio, or the ringing of
 * simulated incoming calls when it is the simulation.
 */
export function createTelephony(
  deps: ServiceDeps,
  parts: { jobs: JobQueue; replyEngine: ReplyEngine; desk: () => CallDesk },
): {
  provider: TelephonyProvider;
  twilioWebhooks: TwilioWebhooks | null;
  inboundSimulator: InboundSimulator | null;
} {
  const twilio = deps.config.telephony.twilio;
  if (deps.config.telephony.provider === "twilio" && twilio) {
    const provider = new TwilioTelephonyProvider(deps, twilio);
    return {
      provider,
      twilioWebhooks: new TwilioWebhooks(deps, provider, twilio.authToken, parts.desk),
      inboundSimulator: null,
    };
  }
  const callee = new SimulatedCallee(deps, parts.replyEngine);
  const provider = new SimulatedTelephonyProvider(deps, parts.jobs, callee, parts.desk);
  return { provider, twilioWebhooks: null, inboundSimulator: provider };
}
