/**
 * Live listen (docs/transfers.md#live-listen): an account's operators hear its running calls (the
 * caller and the assistant mixed) over an authenticated WebSocket, and every listen is audited.
 */
export { ListenAudit, MAX_LISTENS_LISTED } from "./listen-audit.ts";
export { LISTEN_CLOSE, LIVE_AUDIO_FORMAT, LIVE_AUDIO_PATH, ListenSockets } from "./listen-sockets.ts";
export { LiveTaps, WANT_INTERVAL_MS } from "./live-tap.ts";
