export { archivePath, CustomerDataService } from "./customer-data.service.ts";
