import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { CalendarConnectionError, NotFoundError } from "../../errors.ts";
import type { CalendarConnection, CalendarProviderKind } from "../../generated/prisma/client.ts";
import type { SecretBox } from "../../secret-box.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { ConnectionStatus } from "./connection-status.ts";
import { OAuthClient } from "./oauth.ts";
import { type CalendarAccess, type CalendarProvider, CalendarProviderError } from "./provider.ts";

export type OAuthProviderKind = "google" | "microsoft";

/** How long a sign-in may take between startCalendarOAuth and the provider's redirect back. */
const STATE_TTL_MS = 10 * 60_000;
/** Sign-ins under way per account; starting one more drops the oldest. */
const MAX_PENDING_STATES = 20;
/** An access token is refreshed when it has less than this left, so none expires mid-request. */
const REFRESH_MARGIN_MS = 2 * 60_000;
const MAX_STATE_LENGTH = 200;

export const CALLBACK_PATH = "/oauth/calendar/callback";

const StartInput = z.object({
  provider: z.enum(["google", "microsoft"], { error: "The provider field must be google or microsoft." }),
  name: requiredString("name"),
  connectionId: z.number().int().optional(),
});

export type OAuthOutcome =
  | { ok: true; connectionId: number }
  | { ok: false; reason: string; message: string };

const providerNames: Record<OAuthProviderKind, string> = {
  google: "Google Calendar",
  microsoft: "Microsoft 365",
};

/**
 * Google and Microsoft connections: the console's sign-in (authorization code with PKCE, a
 * single-use expiring state bound to the account, redirect to PUBLIC_BASE_URL + CALLBACK_PATH),
 * and access tokens that refresh themselves shortly before they expire.
 */
export class CalendarOAuthService {
  /** One refresh per connection at a time in this process; other instances are handled in `refresh`. */
  private readonly refreshing = new Map<number, Promise<string>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      secrets: SecretBox;
      clients: Record<OAuthProviderKind, OAuthClient | null>;
      providers: Record<CalendarProviderKind, CalendarProvider>;
      status: ConnectionStatus;
      clock: Clock;
    },
  ) {}

  redirectUri(): string {
    return `${this.deps.config.publicBaseUrl}${CALLBACK_PATH}`;
  }

  /** Where the console sends the owner to sign in; `connectionId` renews that connection's grant. */
  async start(accountId: number, input: unknown): Promise<{ authorizationUrl: string }> {
    const parsed = parseInput(StartInput, input);
    const client = this.client(parsed.provider);
    if (parsed.connectionId !== undefined) {
      const existing = await this.deps.db.prisma.calendarConnection.findFirst({
        where: { id: parsed.connectionId, accountId, provider: parsed.provider },
        select: { id: true },
      });
      if (!existing) throw new NotFoundError("Calendar connection");
    }
    const now = this.parts.clock.now();
    const prisma = this.deps.db.prisma;
    await prisma.calendarOAuthState.deleteMany({ where: { expiresAt: { lt: now } } });
    const pending = await prisma.calendarOAuthState.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: MAX_PENDING_STATES - 1,
      select: { id: true },
    });
    if (pending.length > 0) {
      await prisma.calendarOAuthState.deleteMany({ where: { id: { in: pending.map((row) => row.id) } } });
    }
    const state = randomBytes(32).toString("base64url");
    const { verifier, challenge } = OAuthClient.pkce();
    await prisma.calendarOAuthState.create({
      data: {
        accountId,
        provider: parsed.provider,
        name: parsed.name,
        connectionId: parsed.connectionId ?? null,
        stateHash: hashState(state),
        sealedVerifier: this.parts.secrets.seal(verifier),
        expiresAt: new Date(now.getTime() + STATE_TTL_MS),
      },
    });
    return {
      authorizationUrl: client.authorizationUrl({
        redirectUri: this.redirectUri(),
        state,
        codeChallenge: challenge,
      }),
    };
  }

  /**
   * The provider's redirect back: the state is consumed (whatever happens next, it cannot be used
   * again), the code exchanged for tokens, the account and calendar checked, and the connection
   * created (or renewed). Failures are outcomes to show the owner, never exceptions.
   */
  async finish(params: URLSearchParams): Promise<OAuthOutcome> {
    const state = params.get("state") ?? "";
    if (!state || state.length > MAX_STATE_LENGTH) return invalidState();
    const prisma = this.deps.db.prisma;
    const row = await prisma.calendarOAuthState.findUnique({ where: { stateHash: hashState(state) } });
    if (!row) return invalidState();
    // Of two requests with the same state, only the one whose delete removed the row goes on.
    const { count } = await prisma.calendarOAuthState.deleteMany({ where: { id: row.id } });
    if (count === 0) return invalidState();
    if (row.expiresAt <= this.parts.clock.now()) {
      return { ok: false, reason: "expired_state", message: "The sign-in took too long. Start it again." };
    }
    const provider = row.provider as OAuthProviderKind;
    const name = providerNames[provider];
    const denied = params.get("error");
    if (denied) {
      const detail = (params.get("error_description") ?? denied).slice(0, 300);
      return { ok: false, reason: "denied", message: `${name} did not grant access: ${detail}` };
    }
    const code = params.get("code");
    if (!code || code.length > 4096) {
      return { ok: false, reason: "invalid_request", message: `${name} sent no authorization code.` };
    }
    try {
      const client = this.client(provider);
      const tokens = await client.exchangeCode({
        code,
        verifier: this.parts.secrets.open(row.sealedVerifier),
        redirectUri: this.redirectUri(),
      });
      if (!tokens.refreshToken) {
        return {
          ok: false,
          reason: "no_refresh_token",
          message: `${name} granted no refresh token (offline access); remove Voxgate's access in the account's settings and sign in again.`,
        };
      }
      const existing = row.connectionId
        ? await prisma.calendarConnection.findFirst({
            where: { id: row.connectionId, accountId: row.accountId },
          })
        : null;
      if (row.connectionId && !existing) {
        return {
          ok: false,
          reason: "not_found",
          message: "The calendar connection to renew no longer exists.",
        };
      }
      const access: CalendarAccess = {
        url: existing?.url ?? "primary",
        readUrls: existing?.readUrls ?? [],
        username: "",
        secret: tokens.accessToken,
      };
      const calendars = this.parts.providers[provider];
      access.username = (await calendars.account?.(access)) ?? "";
      if (existing && existing.username !== access.username) {
        return {
          ok: false,
          reason: "other_account",
          message: `Signed in as ${access.username}, but this connection is ${existing.username}'s calendar: sign in with that account, or connect a new calendar.`,
        };
      }
      await calendars.verify(access);
      const sealed = {
        username: access.username,
        sealedCredentials: this.parts.secrets.seal(tokens.accessToken),
        sealedRefreshToken: this.parts.secrets.seal(tokens.refreshToken),
        tokenExpiresAt: tokens.expiresAt,
        checkedAt: this.parts.clock.now(),
      };
      if (existing) {
        await prisma.calendarConnection.update({ where: { id: existing.id }, data: sealed });
        await this.parts.status.restored(existing.id);
        this.deps.logger.info("calendar connection signed in again", {
          accountId: row.accountId,
          connectionId: existing.id,
        });
        return { ok: true, connectionId: existing.id };
      }
      const created = await prisma.calendarConnection.create({
        data: { accountId: row.accountId, name: row.name, provider, url: "primary", readUrls: [], ...sealed },
      });
      this.deps.logger.info("calendar connection created", {
        accountId: row.accountId,
        connectionId: created.id,
      });
      return { ok: true, connectionId: created.id };
    } catch (error) {
      if (error instanceof CalendarConnectionError) {
        return { ok: false, reason: String(error.extensions.reason), message: error.message };
      }
      if (!(error instanceof CalendarProviderError)) throw error;
      this.deps.logger.warn("calendar sign-in failed", {
        provider,
        reason: error.reason,
        status: error.status,
      });
      return { ok: false, reason: error.reason, message: `${name}: ${error.message}.` };
    }
  }

  /** The connection's access token, refreshed first when it is about to expire. */
  async accessToken(connection: CalendarConnection): Promise<string> {
    if (!this.needsRefresh(connection)) return this.parts.secrets.open(connection.sealedCredentials);
    let running = this.refreshing.get(connection.id);
    if (!running) {
      running = this.refresh(connection.id).finally(() => this.refreshing.delete(connection.id));
      this.refreshing.set(connection.id, running);
    }
    return running;
  }

  /**
   * Refreshes from the row as stored now, and stores the result only if nobody else did meanwhile
   * (the update is conditional on the refresh token and expiry it started from): with providers
   * that rotate refresh tokens (Microsoft), a second instance refreshing at the same moment can
   * neither overwrite the first one's new refresh token with an older one nor lose it. An
   * invalid_grant answered to a refresh token that another instance has replaced meanwhile is that
   * instance's rotation, not a revocation: the stored token is used.
   */
  private async refresh(id: number): Promise<string> {
    const prisma = this.deps.db.prisma;
    const row = await prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
    if (!this.needsRefresh(row)) return this.parts.secrets.open(row.sealedCredentials);
    const provider = row.provider as OAuthProviderKind;
    if (!row.sealedRefreshToken)
      throw new CalendarProviderError("revoked", this.client(provider).config.tokenUrl);
    const client = this.client(provider);
    let tokens: Awaited<ReturnType<OAuthClient["refresh"]>>;
    try {
      tokens = await client.refresh(this.parts.secrets.open(row.sealedRefreshToken), this.parts.clock.now());
    } catch (error) {
      if (!(error instanceof CalendarProviderError) || error.reason !== "revoked") throw error;
      const current = await prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
      if (current.sealedRefreshToken !== row.sealedRefreshToken && !this.needsRefresh(current)) {
        return this.parts.secrets.open(current.sealedCredentials);
      }
      throw error;
    }
    const { count } = await prisma.calendarConnection.updateMany({
      where: { id, sealedRefreshToken: row.sealedRefreshToken, tokenExpiresAt: row.tokenExpiresAt },
      data: {
        sealedCredentials: this.parts.secrets.seal(tokens.accessToken),
        ...(tokens.refreshToken ? { sealedRefreshToken: this.parts.secrets.seal(tokens.refreshToken) } : {}),
        tokenExpiresAt: tokens.expiresAt,
      },
    });
    if (count === 0) {
      this.deps.logger.info("calendar token refreshed by another instance meanwhile; keeping its tokens", {
        connectionId: id,
      });
    }
    return tokens.accessToken;
  }

  private needsRefresh(connection: CalendarConnection): boolean {
    if (!connection.tokenExpiresAt) return false;
    return connection.tokenExpiresAt.getTime() - this.parts.clock.now().getTime() < REFRESH_MARGIN_MS;
  }

  private client(provider: OAuthProviderKind): OAuthClient {
    const client = this.parts.clients[provider];
    if (client) return client;
    const variable = provider === "google" ? "VOXGATE_GOOGLE_CLIENT" : "VOXGATE_MICROSOFT_CLIENT";
    throw new CalendarConnectionError(
      "not_configured",
      `${providerNames[provider]}: this server has no OAuth client for it; set ${variable}_ID and ${variable}_SECRET (docs/calendars.md).`,
      { url: this.redirectUri() },
    );
  }
}

function hashState(state: string): string {
  return createHash("sha256").update(state).digest("base64url");
}

function invalidState(): OAuthOutcome {
  return {
    ok: false,
    reason: "invalid_state",
    message:
      "This sign-in link is not valid (already used, or not started from this console). Start it again.",
  };
}
