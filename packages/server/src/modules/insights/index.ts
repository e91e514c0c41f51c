export { type Insights, INSIGHTS_MAX_DAYS, InsightsService, SUCCESS_SCORE } from "./insights.service.ts";
