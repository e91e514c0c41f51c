/** Browser web calls from the public widget: starting them (GraphQL, REST) and their WebSocket. */
export { WEB_CALL_PATH, type WebCallDesk, WebCallSockets } from "./web-call-sockets.ts";
export { type WebCallStart, WebCallsService } from "./web-calls.service.ts";
