import type { Logger } from "../../logger.ts";
import { storableText } from "../../storable-text.mjs";
import { type FunctionCallRecord, type RealtimeFunction, refused } from "../message-pipeline/index.ts";
import type { CallFunctions, Handover, SessionPorts } from "./session-ports.ts";

export interface RealtimePorts extends SessionPorts {
  /**
   * Runs a function the model called: its output for the model, whether it asked to hang up, the
   * hand-off it made (`handoff`), and its record, stored with the turn as the pipeline's are.
   */
  runFunction(name: string, args: string, functions: CallFunctions): Promise<RealtimeFunctionResult>;
}

export interface RealtimeFunctionResult {
  output: string;
  endCall: boolean;
  handover?: RealtimeHandover;
  record: FunctionCallRecord;
}

/** A hand-off on a realtime session: the new assistant's instructions and functions for the model too. */
export interface RealtimeHandover extends Handover {
  instructions: string;
  tools: RealtimeFunction[];
}

/** A function call the model made in a response (`call_id` is the model's, which its output answers). */
export interface ModelFunctionCall {
  callId: string;
  name: string;
  args: string;
}

/** A function call's result, under the model's `call_id`. */
export type ModelFunctionResult = RealtimeFunctionResult & { callId: string };

/**
 * Runs a function the model called on the call `callId`. One that fails is answered to the model as
 * an error and stored as refused, so the response goes on.
 */
export async function runModelFunction(
  ports: Pick<RealtimePorts, "runFunction">,
  logger: Logger,
  callId: number,
  call: ModelFunctionCall,
  functions: CallFunctions,
): Promise<ModelFunctionResult> {
  const started = performance.now();
  try {
    return { callId: call.callId, ...(await ports.runFunction(call.name, call.args, functions)) };
  } catch (error) {
    logger.warn("live call function failed", { callId, name: call.name, error });
    const message = "The function failed.";
    return {
      callId: call.callId,
      output: JSON.stringify({ error: message }),
      endCall: false,
      record: {
        ...refused(storableText(call.name), message),
        duration_ms: Math.round(performance.now() - started),
      },
    };
  }
}
