export { CustomerDataService } from "./customer-data.service.ts";
