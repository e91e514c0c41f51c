/** Every movement of money: credits, message and call-minute charges, their settlement or refund. */
export { BillingService, type Reservation, ReservationSweep } from "./billing.service.ts";
export type { CallMinuteCharge, CallMinuteOutcome } from "./call-charges.ts";
