/** The campaign dialer (GraphQL in `dialer.schema.ts`). */
export { DialerSweep } from "./dialer-sweep.ts";
export { DialerService } from "./dialer.service.ts";
export type { OutboundCalls } from "./outbound-calls.ts";
