import type { Call } from "../../generated/prisma/client.ts";

/** What the dialer needs from the calls module (implemented by `CallsService`). */
export interface OutboundCalls {
  /** Creates the call `initiated` and dials; typed errors (balance, the account's call cap, ownership). */
  placeOutbound(input: {
    accountId: number;
    assistantId: number;
    to: string;
    phoneNumberId?: number | null;
    campaignId?: number | null;
    leadId?: number | null;
    variables?: Record<string, unknown>;
  }): Promise<Call>;
  /** Called once per call reaching a final status, in the process that wrote it. */
  onCallFinished(listener: (call: Call) => Promise<void>): void;
}
