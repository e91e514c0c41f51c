import { type Client, createClient } from "graphql-ws";
import type { TypedDocumentString } from "../generated/graphql.ts";

/** Field-level messages of a VALIDATION_FAILED error, keyed by input path. */
export type FieldErrors = Record<string, string[]>;

/** A GraphQL error with the server's stable code (src/errors.ts) and, for validation, its fields. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; fields?: FieldErrors } }[];
}

function toError(errors: NonNullable<GraphQLResponse<unknown>["errors"]>): ApiError {
  const first = errors[0];
  return new ApiError(
    first?.message ?? "The request failed.",
    first?.extensions?.code ?? "UNKNOWN",
    first?.extensions?.fields ?? {},
  );
}

/**
 * Queries and mutations over fetch, subscriptions over one graphql-ws socket, both with the session
 * token. `onUnauthenticated` runs when the server refuses the token (expired or revoked), so the app
 * can return to sign-in wherever the refusal happens.
 */
export class ConsoleApi {
  #socket: Client | null = null;

  constructor(
    readonly apiBase: string,
    private readonly token: () => string | null,
    private readonly onUnauthenticated: () => void,
  ) {}

  async request<R, V>(
    document: TypedDocumentString<R, V>,
    variables?: V,
    files?: Record<string, File>,
  ): Promise<R> {
    const headers: Record<string, string> = {};
    const token = this.token();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit;
    if (files && Object.keys(files).length > 0) {
      // graphql-multipart-request-spec: operations, a map of file fields to variable paths, the files.
      const form = new FormData();
      form.append("operations", JSON.stringify({ query: document.toString(), variables }));
      const map: Record<string, string[]> = {};
      Object.keys(files).forEach((path, index) => {
        map[String(index)] = [`variables.${path}`];
      });
      form.append("map", JSON.stringify(map));
      Object.values(files).forEach((file, index) => {
        form.append(String(index), file, file.name);
      });
      body = form;
      // The server refuses multipart requests without it (CSRF prevention).
      headers["graphql-preflight"] = "1";
    } else {
      headers["content-type"] = "application/json";
      body = JSON.stringify({ query: document.toString(), variables });
    }
    let response: Response;
    try {
      response = await fetch(`${this.apiBase}/graphql`, { method: "POST", headers, body });
    } catch {
      throw new ApiError("The server cannot be reached. Check your connection and try again.", "NETWORK");
    }
    let payload: GraphQLResponse<R>;
    try {
      payload = (await response.json()) as GraphQLResponse<R>;
    } catch {
      throw new ApiError(`The server answered ${response.status}.`, "HTTP_ERROR");
    }
    if (payload.errors?.length) {
      const error = toError(payload.errors);
      if (error.code === "UNAUTHENTICATED" && token) this.onUnauthenticated();
      throw error;
    }
    if (!payload.data) throw new ApiError(`The server answered ${response.status}.`, "HTTP_ERROR");
    return payload.data;
  }

  /** Calls `next` for each event until the returned function is called. */
  subscribe<R, V>(
    document: TypedDocumentString<R, V>,
    variables: V,
    next: (data: R) => void,
    onError: (error: ApiError) => void = () => {},
  ): () => void {
    this.#socket ??= createClient({
      url: `${this.apiBase.replace(/^http/, "ws")}/graphql`,
      connectionParams: () => {
        const token = this.token();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      lazy: true,
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
    });
    return this.#socket.subscribe<R>(
      { query: document.toString(), variables: variables as Record<string, unknown> },
      {
        next: (result) => {
          if (result.errors?.length) onError(toError(result.errors as GraphQLResponse<R>["errors"] & object));
          else if (result.data) next(result.data);
        },
        error: (error) => onError(new ApiError(String((error as Error)?.message ?? error), "SUBSCRIPTION")),
        complete: () => {},
      },
    );
  }

  /**
   * A live listen to one of the account's running calls (docs/transfers.md#live-listen): the socket is
   * opened without a credential in its URL, which proxies log; the session token goes in the first
   * message.
   */
  listenToCall(callId: number): WebSocket {
    const socket = new WebSocket(`${this.apiBase.replace(/^http/, "ws")}/calls/live-audio`);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () =>
      socket.send(JSON.stringify({ type: "listen", callId, authorization: `Bearer ${this.token() ?? ""}` })),
    );
    return socket;
  }

  /**
   * A file the server serves to the session's holder only (an export archive), fetched with the
   * session token: a plain link could not carry it.
   */
  async download(url: string): Promise<Blob> {
    const token = this.token();
    let response: Response;
    try {
      response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    } catch {
      throw new ApiError("The server cannot be reached. Check your connection and try again.", "NETWORK");
    }
    if (response.status === 401 && token) this.onUnauthenticated();
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      throw new ApiError(body?.message ?? `The server answered ${response.status}.`, "HTTP_ERROR");
    }
    return response.blob();
  }

  /** Closes the socket, e.g. at sign-out, so that no subscription outlives the session. */
  close(): void {
    void this.#socket?.dispose();
    this.#socket = null;
  }
}
