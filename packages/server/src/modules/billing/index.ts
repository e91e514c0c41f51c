/** Every movement of money: credits, message charges and their settlement or refund. */
export { BillingService, type Reservation, ReservationSweep } from "./billing.service.ts";
