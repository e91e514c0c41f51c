/** Phone numbers and the release of dedicated numbers (through the carrier in modules/telephony). */
export { CallerIdVerification } from "./caller-id-verification.ts";
export { PhoneNumberReleaseSweep } from "./number-release.ts";
export { PhoneNumbersService } from "./phone-numbers.service.ts";
