/** Every movement of money: credits, message and call-minute charges, their settlement or refund. */
export {
  BillingService,
  type CallMinuteCharge,
  type CallMinuteOutcome,
  type Reservation,
  ReservationSweep,
} from "./billing.service.ts";
