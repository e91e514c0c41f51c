import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { MediaCapacity, MediaStreamHandler } from "../media/index.ts";
import type { ReplyEngine } from "../message-pipeline/index.ts";
import type {
  CallDesk,
  CallerIdDesk,
  InboundSimulator,
  TelephonyProvider,
  TestCallCarrier,
  TextDesk,
  TextSimulator,
  TransferDesk,
} from "./provider.ts";
import { SimulatedCallee, type TestCallers } from "./simulated/callee.ts";
import { SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";
import { TwilioMediaStreams } from "./twilio/media-streams.ts";
import { TwilioTelephonyProvider } from "./twilio/twilio-provider.ts";
import { TwilioWebhooks } from "./twilio/twilio-webhooks.ts";

/**
 * The carrier VOXGATE_TELEPHONY names, with Twilio's webhooks and media streams when it is Twilio, or the ringing of
 * simulated incoming calls (and arrival of simulated texts) when it is the simulation.
 */
export function createTelephony(
  deps: ServiceDeps,
  parts: {
    jobs: JobQueue;
    replyEngine: ReplyEngine;
    desk: () => CallDesk;
    /** Where Twilio's caller ID verification outcomes go: the phone-number service. */
    callerIds: () => CallerIdDesk;
    /** The voice engine, given each authenticated media stream (Twilio) or answered call's text stream (simulated). */
    media: () => MediaStreamHandler;
    /** Admission control: inbound calls past it are refused before they connect. */
    capacity: MediaCapacity;
    /** Where texts' status reports and incoming texts go: the texts service. */
    texts: () => TextDesk;
    /** Where transfer legs' outcomes go: the transfers service. */
    transfers: () => TransferDesk;
    /** The callers of agent tests' calls: the agent tests module. */
    testCallers: () => TestCallers;
  },
): {
  provider: TelephonyProvider;
  /** Carries agent tests' calls: the simulation, also when real calls go through Twilio. */
  testCarrier: TestCallCarrier;
  /** The test carrier when it is not `provider` (beside Twilio): it starts and stops on its own. */
  separateTestCarrier: Lifecycle | null;
  twilioWebhooks: TwilioWebhooks | null;
  twilioMedia: TwilioMediaStreams | null;
  inboundSimulator: InboundSimulator | null;
  textSimulator: TextSimulator | null;
} {
  const simulation = () =>
    new SimulatedTelephonyProvider(deps, {
      jobs: parts.jobs,
      callee: new SimulatedCallee(parts.replyEngine),
      desk: parts.desk,
      media: parts.media,
      capacity: parts.capacity,
      texts: parts.texts,
      transfers: parts.transfers,
      testCallers: parts.testCallers,
    });
  const twilio = deps.config.telephony.twilio;
  if (deps.config.telephony.provider === "twilio" && twilio) {
    const provider = new TwilioTelephonyProvider(deps, twilio);
    const twilioMedia = new TwilioMediaStreams(deps, twilio.authToken, parts.media, {
      startWithinMs: deps.config.connections.webSocketInitMs,
    });
    const testCarrier = simulation();
    return {
      provider,
      twilioWebhooks: new TwilioWebhooks(
        deps,
        provider,
        twilio,
        parts.desk,
        parts.callerIds,
        twilioMedia,
        parts.capacity,
        parts.texts,
        parts.transfers,
      ),
      twilioMedia,
      testCarrier,
      separateTestCarrier: testCarrier,
      inboundSimulator: null,
      textSimulator: null,
    };
  }
  const provider = simulation();
  return {
    provider,
    testCarrier: provider,
    separateTestCarrier: null,
    twilioWebhooks: null,
    twilioMedia: null,
    inboundSimulator: provider,
    textSimulator: provider,
  };
}
