export { paginationEnvelope, pageWindow, type PageInfo, type PaginationEnvelope } from "./envelope.ts";
export { restErrorOf, STATUS_BY_CODE, type RestError } from "./errors.ts";
export { snakeCasePath, timestampA, timestampB } from "./format.ts";
export type { GraphQLExecutor, RestRequest, RouteDefinition } from "./route.ts";
export { createRestApi, defaultErrorBody, type RestApiOptions } from "./router.ts";
export { routes } from "./routes/index.ts";
