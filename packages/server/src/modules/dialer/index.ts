/** The campaign dialer (GraphQL in `dialer.schema.ts`). */
export { DialerService } from "./dialer.service.ts";
export { DialerSweep } from "./dialer-sweep.ts";
