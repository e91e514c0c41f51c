/** Phone numbers, the telephony provider behind them and the release of dedicated numbers. */
export { PhoneNumberReleaseSweep, PhoneNumbersService } from "./phone-numbers.service.ts";
export { EmbeddedTelephonyProvider, type TelephonyProvider } from "./telephony-provider.ts";
