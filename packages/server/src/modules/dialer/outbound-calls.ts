import type { Call } from "../../generated/prisma/client.ts";
import type { OutboundCallRequest } from "../calls/index.ts";

/** What the dialer needs from the calls module (implemented by `CallsService`). */
export interface OutboundCalls {
  /** Creates the call `initiated` and dials; typed errors (balance, the account's call cap, ownership). */
  placeOutbound(input: OutboundCallRequest): Promise<Call>;
  /** Called once per call reaching a final status, in the process that wrote it. */
  onCallFinished(listener: (call: Call) => Promise<void>): void;
}
