import type { ServiceDeps } from "../../deps.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { ReplyEngine } from "../message-pipeline/index.ts";
import type { CallEventSink, TelephonyProvider } from "./provider.ts";
import { SimulatedCallee } from "./simulated/callee.ts";
import { SimulatedTelephonyProvider } from "./simulated/simulated-provider.ts";

/** The carrier VOXGATE_TELEPHONY names. */
export function createTelephonyProvider(
  deps: ServiceDeps,
  parts: { jobs: JobQueue; replyEngine: ReplyEngine; events: () => CallEventSink },
): TelephonyProvider {
  return new SimulatedTelephonyProvider(
    deps,
    parts.jobs,
    new SimulatedCallee(deps, parts.replyEngine),
    parts.events,
  );
}
