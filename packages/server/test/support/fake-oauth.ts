import { createHash, randomBytes } from "node:crypto";
import { type FakeAnswer, type FakeRequest, formOf } from "./fake-http.ts";

/**
 * An OAuth 2.0 authorization server as RFC 6749 and RFC 7636 describe it, the way Google's and
 * Microsoft's identity platforms behave: the authorization endpoint (GET, client_id,
 * response_type=code, redirect_uri, scope, state, code_challenge with S256) signs in `signedInAs`
 * and redirects back with a single-use code; the token endpoint (form POST with client_id and
 * client_secret) exchanges it, checking redirect_uri and code_verifier, and refreshes; a revoked or
 * unknown refresh token gets 400 invalid_grant.
 */
export class FakeOAuthServer {
  /** The account that signs in at the authorization endpoint. */
  signedInAs = "owner@example.com";
  /** Whether the user declines consent (redirect with error=access_denied). */
  deny = false;
  /** Lifetime of access tokens, seconds (expires_in). */
  accessLifetime = 3600;
  /** Microsoft rotates the refresh token on every refresh; Google keeps the one it issued. */
  rotateRefreshTokens = false;
  readonly accessTokens = new Map<string, string>();
  readonly refreshTokens = new Map<string, { email: string; revoked: boolean }>();
  readonly grants = { authorization_code: 0, refresh_token: 0 };
  /** The authorization requests' query parameters, in order. */
  readonly authorizations: URLSearchParams[] = [];
  private readonly codes = new Map<
    string,
    { challenge: string; redirectUri: string; email: string; scope: string; used: boolean }
  >();

  constructor(
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  authorize(request: FakeRequest): FakeAnswer {
    const query = request.query;
    this.authorizations.push(query);
    const redirectUri = query.get("redirect_uri");
    if (query.get("client_id") !== this.clientId || !redirectUri) {
      return { status: 400, json: { error: "invalid_client" } };
    }
    const back = new URL(redirectUri);
    back.searchParams.set("state", query.get("state") ?? "");
    if (this.deny) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user declined.");
    } else if (
      query.get("response_type") !== "code" ||
      query.get("code_challenge_method") !== "S256" ||
      !query.get("code_challenge")
    ) {
      back.searchParams.set("error", "invalid_request");
    } else {
      const code = `code-${randomBytes(12).toString("hex")}`;
      this.codes.set(code, {
        challenge: query.get("code_challenge")!,
        redirectUri,
        email: this.signedInAs,
        scope: query.get("scope") ?? "",
        used: false,
      });
      back.searchParams.set("code", code);
    }
    return { status: 302, headers: { location: back.href } };
  }

  token(request: FakeRequest): FakeAnswer {
    if (request.method !== "POST") return { status: 405 };
    const form = formOf(request);
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) {
      return { status: 401, json: { error: "invalid_client" } };
    }
    if (form.grant_type === "authorization_code") {
      this.grants.authorization_code += 1;
      const code = this.codes.get(form.code ?? "");
      const verifier = form.code_verifier ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!code || code.used || code.redirectUri !== form.redirect_uri || code.challenge !== challenge) {
        if (code) code.used = true;
        return invalidGrant("The authorization code is invalid, used, or does not match.");
      }
      code.used = true;
      const refreshToken = this.issueRefreshToken(code.email);
      return this.tokens(code.email, refreshToken, code.scope);
    }
    if (form.grant_type === "refresh_token") {
      this.grants.refresh_token += 1;
      const grant = this.refreshTokens.get(form.refresh_token ?? "");
      if (!grant || grant.revoked) return invalidGrant("Token has been expired or revoked.");
      return this.tokens(
        grant.email,
        this.rotateRefreshTokens ? this.issueRefreshToken(grant.email) : undefined,
        form.scope ?? "",
      );
    }
    return { status: 400, json: { error: "unsupported_grant_type" } };
  }

  /** The user removes the app's access (or an admin does): every refresh token of theirs stops working. */
  revoke(email: string): void {
    for (const grant of this.refreshTokens.values()) if (grant.email === email) grant.revoked = true;
    for (const [token, owner] of this.accessTokens) if (owner === email) this.accessTokens.delete(token);
  }

  /** The account an access token belongs to, or null when it is not (or no longer) valid. */
  ownerOf(token: string | null): string | null {
    return token ? (this.accessTokens.get(token) ?? null) : null;
  }

  private issueRefreshToken(email: string): string {
    const token = `refresh-${randomBytes(12).toString("hex")}`;
    this.refreshTokens.set(token, { email, revoked: false });
    return token;
  }

  private tokens(email: string, refreshToken: string | undefined, scope: string): FakeAnswer {
    const accessToken = `access-${randomBytes(12).toString("hex")}`;
    this.accessTokens.set(accessToken, email);
    return {
      status: 200,
      headers: { "cache-control": "no-store" },
      json: {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: this.accessLifetime,
        scope,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
      },
    };
  }
}

function invalidGrant(description: string): FakeAnswer {
  return { status: 400, json: { error: "invalid_grant", error_description: description } };
}
