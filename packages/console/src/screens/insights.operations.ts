import { graphql } from "../api/graphql.ts";

/** The overview screen: the account's time zone (its days), the assistants to filter by, then the figures. */
export const InsightsSetupQuery = graphql(`
  query ConsoleInsightsSetup {
    viewer { id account { id timezone } }
    assistants(perPage: 100) { items { id name } }
  }
`);

export const InsightsQuery = graphql(`
  query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {
    insights(period: $period, assistantId: $assistantId) {
      from to timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost
      evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs
      transfers bookings
      endedReasons { status reason calls }
      series { start calls answeredCalls conversations minutes cost bookings }
    }
  }
`);
