import type { ServiceDeps } from "../../deps.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { ReplyEngine } from "../message-pipeline/index.ts";
import type { CallDesk, TelephonyProvider } from "./provider.ts";
import { SimulatedCallee } from "./simulated/callee.ts";
import { SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";
import { TwilioTelephonyProvider } from "./twilio/twilio-provider.ts";
import { TwilioWebhooks } from "./twilio/twilio-webhooks.ts";

/** The carrier VOXGATE_TELEPHONY names, and Twilio's webhooks when it is Twilio. */
export function createTelephony(
  deps: ServiceDeps,
  parts: { jobs: JobQueue; replyEngine: ReplyEngine; desk: () => CallDesk },
): { provider: TelephonyProvider; twilioWebhooks: TwilioWebhooks | null } {
  const twilio = deps.config.telephony.twilio;
  if (deps.config.telephony.provider === "twilio" && twilio) {
    const provider = new TwilioTelephonyProvider(deps, twilio);
    return { provider, twilioWebhooks: new TwilioWebhooks(deps, provider, twilio.authToken, parts.desk) };
  }
  const callee = new SimulatedCallee(deps, parts.replyEngine);
  return {
    provider: new SimulatedTelephonyProvider(deps, parts.jobs, callee, parts.desk),
    twilioWebhooks: null,
  };
}
