/** Request limits per client, conversation and login (memory, or Redis across instances). */
export { RateLimitsService } from "./rate-limits.service.ts";
