/** Post-call evaluation of calls (a durable job) and, on demand, of chat conversations. */
export { type EvaluatedCalls, EvaluationService } from "./evaluation.service.ts";
