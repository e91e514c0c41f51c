/** Login, sessions, credentials, and the ending of streams whose credential was revoked. */
export { AuthService } from "./auth.service.ts";
export { CredentialCache } from "./credential-cache.ts";
export type { StreamEnd } from "./credential-streams.ts";
export { CredentialStreams } from "./credential-streams.ts";
export type { MemberRole } from "./roles.ts";
export { MEMBER_ROLES, managesAccount, requireManager } from "./roles.ts";
export type { Viewer } from "./viewer.ts";
