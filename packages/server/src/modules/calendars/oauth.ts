import { createHash, randomBytes } from "node:crypto";
import { CalendarProviderError } from "./provider.ts";
import { jsonBody, type ProviderHttpOptions, providerFetch } from "./provider-http.ts";

/** One provider's OAuth 2.0 client (RFC 6749 authorization code grant with PKCE, RFC 7636). */
export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  /** Further authorization parameters (Google: access_type=offline, prompt=consent). */
  authorizeParams?: Record<string, string>;
  /** Whether the refresh request repeats the scopes (Microsoft's v2.0 endpoint asks for them). */
  scopeOnRefresh?: boolean;
}

export interface OAuthTokens {
  accessToken: string;
  /** Absent when the provider keeps the refresh token it issued before (Google on refresh). */
  refreshToken: string | undefined;
  expiresAt: Date;
}

/** An access token without expires_in is assumed to last this long. */
const DEFAULT_LIFETIME_S = 3600;

export class OAuthClient {
  constructor(
    readonly config: OAuthClientConfig,
    private readonly http: ProviderHttpOptions,
  ) {}

  /** A fresh PKCE pair: the verifier is kept until the callback, the challenge goes to the provider. */
  static pkce(): { verifier: string; challenge: string } {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  }

  authorizationUrl(input: { redirectUri: string; state: string; codeChallenge: string }): string {
    const url = new URL(this.config.authorizeUrl);
    const params = {
      client_id: this.config.clientId,
      redirect_uri: input.redirectUri,
      response_type: "code",
      scope: this.config.scopes.join(" "),
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: "S256",
      ...this.config.authorizeParams,
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.href;
  }

  exchangeCode(input: { code: string; verifier: string; redirectUri: string }): Promise<OAuthTokens> {
    return this.tokenRequest({
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.verifier,
    });
  }

  /** A new access token; `revoked` when the provider answers invalid_grant (RFC 6749 §5.2). */
  refresh(refreshToken: string, now: Date): Promise<OAuthTokens> {
    return this.tokenRequest(
      {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        ...(this.config.scopeOnRefresh ? { scope: this.config.scopes.join(" ") } : {}),
      },
      now,
    );
  }

  private async tokenRequest(params: Record<string, string>, now = new Date()): Promise<OAuthTokens> {
    const url = this.config.tokenUrl;
    const body = new URLSearchParams({
      ...params,
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    }).toString();
    // A code is single-use and a refresh may rotate the refresh token: a replay after a lost answer
    // would fail or orphan the new token, so only a 429 (nothing done) is retried.
    const response = await providerFetch(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
        idempotent: false,
      },
      this.http,
    );
    const answer = jsonBody(response) as {
      access_token?: unknown;
      refresh_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    } | null;
    if (response.status === 400 || response.status === 401) {
      if (answer?.error === "invalid_grant") throw new CalendarProviderError("revoked", url, response.status);
      // invalid_client, unauthorized_client: the server's OAuth client is wrong, not the grant.
      throw new CalendarProviderError("unauthorized", url, response.status);
    }
    if (response.status !== 200 || !answer || typeof answer.access_token !== "string") {
      throw new CalendarProviderError("unexpected_response", url, response.status);
    }
    const lifetime =
      typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : DEFAULT_LIFETIME_S;
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === "string" ? answer.refresh_token : undefined,
      expiresAt: new Date(now.getTime() + lifetime * 1000),
    };
  }
}
