export { archivePath, CustomerDataService } from "./customer-data.service.ts";
export { normalisePhoneNumber } from "./identifiers.ts";
