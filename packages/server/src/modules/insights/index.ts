export { INSIGHTS_MAX_DAYS, type Insights, InsightsService, SUCCESS_SCORE } from "./insights.service.ts";
