export {
  INSIGHTS_CONCURRENCY,
  INSIGHTS_MAX_DAYS,
  type Insights,
  InsightsService,
} from "./insights.service.ts";
export { InsightsRollup } from "./insights-rollup.ts";
export { INSIGHTS_LATENCY_BOUNDS, SUCCESS_SCORE } from "./insights-sql.ts";
