/** Phone numbers and the release of dedicated numbers (through the carrier in modules/telephony). */
export { PhoneNumberReleaseSweep, PhoneNumbersService } from "./phone-numbers.service.ts";
