export { type BodyLimits, readLimited } from "./body.ts";
export { type PageInfo, type PaginationEnvelope, pageWindow, paginationEnvelope } from "./envelope.ts";
export { type RestError, restErrorOf, STATUS_BY_CODE } from "./errors.ts";
export { snakeCasePath, timestampA, timestampB } from "./format.ts";
export { type OpenApiOptions, openApiDocument, operationId } from "./openapi/document.ts";
export { referencePage } from "./openapi/reference-page.ts";
export type { GraphQLExecutor, RestRequest, RouteDefinition } from "./route.ts";
export { createRestApi, defaultErrorBody, type RestApiOptions } from "./router.ts";
export { routes } from "./routes/index.ts";
