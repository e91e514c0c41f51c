import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AccountSuspendedError, AppError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Prisma, User } from "../../generated/prisma/client.ts";
import { emailAddress, parseInput } from "../../validation.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import type { CredentialCache } from "./credential-cache.ts";
import { verifyAgainstDecoy, verifyPassword } from "./password.ts";
import type { MemberRole } from "./roles.ts";
import { hashToken, mintToken, parseToken, type TokenKind, tokenMatches } from "./tokens.ts";
import type { Viewer } from "./viewer.ts";

export type { Viewer } from "./viewer.ts";

/** Why a presented credential was refused (never which account it would have belonged to). */
export type AuthFailure = "malformed" | "invalid" | "revoked" | "expired" | "suspended";

export type AuthResult =
  | { viewer: Viewer; failure?: undefined }
  | { viewer: null; failure: AuthFailure | null };

const LoginInput = z.object({
  email: emailAddress(),
  password: z.string({ error: "The password field is required." }).min(1, "The password field is required."),
});

const TOO_MANY_LOGINS = "Too many failed login attempts. Please try again later.";

export interface LoginResult {
  token: string;
  expiresAt: Date;
  userId: number;
}

export class AuthService {
  /** When each credential's `lastUsedAt` was last written by this instance. */
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      rateLimits: RateLimitsService;
      credentials: CredentialCache;
      events: EventSink;
    },
    /** `lastUsedAt` is written at most this often per credential, not on every request. */
    private readonly lastUsedWriteIntervalMs = 60_000,
  ) {}

  /**
   * Resolves an `Authorization` header. No header means an anonymous caller; anything else that is
   * not a valid, live credential is a failure, which protected operations turn into 401.
   */
  async authenticate(authorization: string | null | undefined): Promise<AuthResult> {
    if (authorization === undefined || authorization === null || authorization === "") {
      return { viewer: null, failure: null };
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1];
    const parsed = token ? parseToken(token) : null;
    if (!token || !parsed) return { viewer: null, failure: "malformed" };

    const { credentials } = this.parts;
    const tokenHash = hashToken(token);
    const cached = credentials.get(tokenHash);
    if (cached) {
      await this.touch(cached.credential.kind, cached.credential.id);
      return { viewer: cached };
    }
    const mark = credentials.mark();
    const result = await this.lookUp(token, parsed);
    if (result.viewer) {
      credentials.set(tokenHash, result.viewer, mark);
      await this.touch(result.viewer.credential.kind, result.viewer.credential.id);
    }
    return result;
  }

  /**
   * The database's answer for a well-formed token. Plain SQL: every request without a cached
   * credential asks, and Prisma compiles each query anew (more than the query itself costs).
   */
  private async lookUp(token: string, parsed: { kind: TokenKind; lookupId: string }): Promise<AuthResult> {
    if (parsed.kind === "apiKey") {
      const [key] = await this.deps.db.withConnection((sql) =>
        sql.query<{
          id: number;
          userId: number;
          accountId: number;
          tokenHash: string;
          suspendedAt: Date | null;
        }>(
          `SELECT k."id", k."userId", k."accountId", k."tokenHash", a."suspendedAt"
           FROM "api_keys" k JOIN "accounts" a ON a."id" = k."accountId"
           WHERE k."lookupId" = $1`,
          [parsed.lookupId],
        ),
      );
      if (!key || !tokenMatches(token, key.tokenHash)) return { viewer: null, failure: "invalid" };
      if (key.suspendedAt) return { viewer: null, failure: "suspended" };
      return {
        viewer: { userId: key.userId, accountId: key.accountId, credential: { kind: "apiKey", id: key.id } },
      };
    }

    const [session] = await this.deps.db.withConnection((sql) =>
      sql.query<{
        id: number;
        userId: number;
        accountId: number;
        tokenHash: string;
        expiresAt: Date;
        revokedAt: Date | null;
        suspendedAt: Date | null;
      }>(
        `SELECT s."id", s."userId", u."accountId", s."tokenHash", s."expiresAt", s."revokedAt", a."suspendedAt"
         FROM "session_tokens" s JOIN "users" u ON u."id" = s."userId" JOIN "accounts" a ON a."id" = u."accountId"
         WHERE s."lookupId" = $1`,
        [parsed.lookupId],
      ),
    );
    if (!session || !tokenMatches(token, session.tokenHash)) return { viewer: null, failure: "invalid" };
    if (session.revokedAt) return { viewer: null, failure: "revoked" };
    if (session.suspendedAt) return { viewer: null, failure: "suspended" };
    const expiresAt = new Date(session.expiresAt);
    if (expiresAt.getTime() <= Date.now()) return { viewer: null, failure: "expired" };
    return {
      viewer: {
        userId: session.userId,
        accountId: session.accountId,
        credential: { kind: "session", id: session.id, expiresAt },
      },
    };
  }

  /**
   * The caller's user row, as `viewer` shows it. Plain SQL when the query needs no relation (the
   * usual `{ viewer { email } }`): it runs on every such request. `query` is Pothos's selection.
   */
  async viewerUser(viewer: Viewer, query: { include?: unknown; select?: unknown }): Promise<User> {
    if (query.include === undefined && query.select === undefined) {
      const [user] = await this.deps.db.withConnection((sql) =>
        sql.query<User>(
          `SELECT "id", "accountId", "email", "name", "passwordHash", "createdAt", "updatedAt", "role"
           FROM "users" WHERE "id" = $1`,
          [viewer.userId],
        ),
      );
      if (user) return user;
    }
    return this.deps.db.prisma.user.findUniqueOrThrow({
      ...(query as object),
      where: { id: viewer.userId },
    });
  }

  /**
   * The caller's role, read on every call (not cached with the credential) so that a change applies at
   * once. An API key acts with its creator's current role: only owners and admins create keys, and a
   * creator demoted to agent takes their keys down with them.
   */
  async roleOf(viewer: Viewer): Promise<MemberRole> {
    const [user] = await this.deps.db.withConnection((sql) =>
      sql.query<{ role: MemberRole }>(`SELECT "role" FROM "users" WHERE "id" = $1`, [viewer.userId]),
    );
    return user?.role ?? "agent";
  }

  /**
   * Every attempt counts against its email and its client address before the password is checked, so
   * parallel guesses cannot slip past the limit; a success gives its attempt back. Beyond either limit,
   * even the right password is refused until the window ends: the window is fixed (it does not grow with
   * further attempts), so nobody can lock a user out for longer than one window at a time.
   */
  async login(
    input: { email?: unknown; password?: unknown },
    clientAddress: string,
    report: RateLimitReporter,
  ): Promise<LoginResult> {
    const { email, password } = parseInput(LoginInput, input);
    const { rateLimits } = this.parts;
    await rateLimits.consume("loginAddress", clientAddress, report, TOO_MANY_LOGINS);
    await rateLimits.consume("loginEmail", email, report, TOO_MANY_LOGINS);
    const user = await this.deps.db.prisma.user.findUnique({
      where: { email },
      include: { account: { select: { suspendedAt: true } } },
    });
    const valid = user
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDecoy(password);
    if (!user || !valid)
      throw new AppError("INVALID_CREDENTIALS", "These credentials do not match our records.");
    // A success clears its email's failures (the owner got in), but only gives back its own attempt on
    // the address: one known password must not reset the budget for guessing others from there.
    await rateLimits.reset("loginEmail", email);
    await rateLimits.reward("loginAddress", clientAddress);
    // Said only after the password is right, so that it reveals nothing to a guesser.
    if (user.account.suspendedAt) throw new AccountSuspendedError();

    const session = await this.deps.db.prisma.$transaction((tx) => this.openSession(tx, user, clientAddress));
    this.deps.logger.info("session opened", { userId: user.id });
    return session;
  }

  /** Opens a session for `user` in `tx` (a login, or an accepted invitation or reset link) and records the sign-in. */
  async openSession(
    tx: Prisma.TransactionClient,
    user: { id: number; accountId: number; email: string },
    clientAddress: string,
  ): Promise<LoginResult> {
    const minted = mintToken("session");
    const expiresAt = new Date(Date.now() + this.deps.config.sessionTtlHours * 3_600_000);
    const session = await tx.sessionToken.create({
      data: { userId: user.id, lookupId: minted.lookupId, tokenHash: minted.tokenHash, expiresAt },
    });
    await this.parts.events.emit(tx, {
      type: "account.signed_in",
      accountId: user.accountId,
      actor: { kind: "user", id: user.id, userId: user.id, ip: clientAddress },
      target: { type: "session", id: session.id },
      details: { email: user.email },
    });
    return { token: minted.token, expiresAt, userId: user.id };
  }

  /** Revokes the session the caller is using. API keys are revoked by deleting them instead. */
  async logout(viewer: Viewer): Promise<void> {
    if (viewer.credential.kind !== "session") {
      throw new AppError(
        "BAD_REQUEST",
        "Logout ends a session token. To revoke an API key, delete it (DELETE /api/user/api-keys/{id}).",
      );
    }
    await this.deps.db.prisma.sessionToken.update({
      where: { id: viewer.credential.id },
      data: { revokedAt: new Date() },
    });
    this.parts.credentials.revoked({ kind: "session", id: viewer.credential.id });
  }

  /** Ends every open session of the user (after a password reset): each device signs in again. */
  async revokeSessionsOf(userId: number): Promise<number> {
    const revoked = await this.deps.db.prisma.sessionToken.updateManyAndReturn({
      where: { userId, revokedAt: null },
      data: { revokedAt: new Date() },
      select: { id: true },
    });
    for (const { id } of revoked) this.parts.credentials.revoked({ kind: "session", id });
    return revoked.length;
  }

  private async touch(kind: "apiKey" | "session", id: number): Promise<void> {
    const cacheKey = `${kind}:${id}`;
    const now = Date.now();
    const last = this.lastUsedWrites.get(cacheKey);
    if (last !== undefined && now - last < this.lastUsedWriteIntervalMs) return;
    this.lastUsedWrites.set(cacheKey, now);
    const data = { lastUsedAt: new Date(now) };
    try {
      if (kind === "apiKey") await this.deps.db.prisma.apiKey.updateMany({ where: { id }, data });
      else await this.deps.db.prisma.sessionToken.updateMany({ where: { id }, data });
    } catch (error) {
      // Bookkeeping must never fail the request it rides on.
      this.deps.logger.warn("could not record last use of a credential", { kind, id, error });
    }
  }
}
