import { RoleNotAllowedError } from "../../errors.ts";

/** A member's role in their account (docs/console.md#team). */
export type MemberRole = "owner" | "admin" | "agent";

export const MEMBER_ROLES: readonly MemberRole[] = ["owner", "admin", "agent"];

/** Owners and admins manage the account: keys, billing, webhooks, settings, numbers, calendars, team. */
export function managesAccount(role: MemberRole): boolean {
  return role === "owner" || role === "admin";
}

/** The one check behind every management operation: an agent (or a key of one) is refused. */
export function requireManager(role: MemberRole): void {
  if (!managesAccount(role)) throw new RoleNotAllowedError(role, "the owner or admin role");
}
