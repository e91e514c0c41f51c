import type { Call, OutboundCallRequest } from "../calls/index.ts";

/** What the dialer needs from the calls module (implemented by `CallStarts`). */
export interface OutboundCalls {
  /** Creates the call `initiated` and dials; typed errors (balance, the account's call cap, ownership). */
  placeOutbound(input: OutboundCallRequest): Promise<Call>;
}
