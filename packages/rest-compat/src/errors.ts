import type { GraphQLFormattedError } from "graphql";
import { unknownEnumValueMessage } from "./enums.ts";
import { snakeCasePath } from "./format.ts";

/** The one place where error codes become HTTP statuses. Unknown codes are server errors. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  BAD_REQUEST: 400,
  QUERY_TOO_NESTED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_BALANCE: 402,
  FORBIDDEN: 403,
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  ASSISTANT_NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  CONFLICT: 409,
  SIMULATED_CARRIER_REQUIRED: 409,
  PHONE_NUMBER_UNAVAILABLE: 409,
  RECIPIENT_OPTED_OUT: 409,
  SLOT_UNAVAILABLE: 409,
  NUMBER_NOT_SMS_CAPABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  CALENDAR_CONNECTION_FAILED: 422,
  RATE_LIMITED: 429,
  UPSTREAM_FAILED: 502,
  AT_CAPACITY: 503,
  SERVICE_UNAVAILABLE: 503,
  CUSTOMER_ERASED: 409,
  ROLE_NOT_ALLOWED: 403,
  LAST_OWNER: 409,
  INVITATION_INVALID: 410,
  MAIL_NOT_CONFIGURED: 409,
};

/** What a route that only owners and admins may use answers an agent's credential (403 ROLE_NOT_ALLOWED). */
export const MANAGERS_ONLY =
  "The credential's user is an agent (an API key acts with its creator's current role): only owners and admins may (ROLE_NOT_ALLOWED)";

/** An error as the REST layer sees it: a code, a message and, for validation, field messages. */
export interface RestError {
  status: number;
  code: string;
  message: string;
  /** Field messages keyed by snake_case path, as the legacy API names its fields. */
  fields?: Record<string, string[]>;
  /** Seconds to wait before retrying, for RATE_LIMITED, AT_CAPACITY and SERVICE_UNAVAILABLE. */
  retryAfter?: number;
}

export function restErrorOf(error: GraphQLFormattedError): RestError {
  const extensions = error.extensions ?? {};
  const code = typeof extensions.code === "string" ? extensions.code : undefined;
  if (code === undefined || !(code in STATUS_BY_CODE)) {
    const variableError = variableCoercionError(error.message);
    if (variableError) return variableError;
    return { status: 500, code: code ?? "INTERNAL_SERVER_ERROR", message: "Server Error" };
  }
  const restError: RestError = { status: STATUS_BY_CODE[code]!, code, message: error.message };
  const fields = extensions.fields;
  if (fields && typeof fields === "object") {
    restError.fields = Object.fromEntries(
      Object.entries(fields as Record<string, string[]>).map(([path, messages]) => [
        snakeCasePath(path),
        messages,
      ]),
    );
  }
  if (typeof extensions.retryAfter === "number") restError.retryAfter = extensions.retryAfter;
  return restError;
}

/**
 * A REST value that the GraphQL operation's variable types refused (a number where a string was
 * expected, a missing required field) is a validation error on that field, not a server error.
 * graphql-js words these errors in a fixed way: `Variable "$input" got invalid value ... at
 * "input.name"; ...` and `Field "name" of required type "String!" was not provided.`
 */
function variableCoercionError(message: string): RestError | null {
  const match = /^Variable "\$(\w+)" got invalid value .*?(?: at "([\w.[\]]+)")?; (.*)$/s.exec(message);
  if (!match) return null;
  const [, variable, at, detail = ""] = match;
  const missing = /Field "(\w+)" of required type "([^"]+)" was not provided/.exec(detail);
  let path = (at ?? variable ?? "input").replace(/\[(\d+)\]/g, ".$1");
  if (missing) path = `${path}.${missing[1]}`;
  // The operation's wrapper variable (`input`) is not a field of the REST body.
  path = path.replace(/^input\./, "");
  const field = snakeCasePath(path);
  const label = field.split(".").pop()!.replaceAll("_", " ");
  const enumType = missing ? undefined : /does not exist in "(\w+)" enum/.exec(detail)?.[1];
  const expected = missing ? "" : detail.match(/(String|Int|Float|Boolean)/)?.[1];
  const text = missing
    ? `The ${label} field is required.`
    : enumType
      ? unknownEnumValueMessage(enumType, label)
      : `The ${label} field must be ${expectedWords[expected ?? ""] ?? "a valid value"}.`;
  return { status: 422, code: "VALIDATION_FAILED", message: text, fields: { [field]: [text] } };
}

const expectedWords: Record<string, string> = {
  String: "a string",
  Int: "an integer",
  Float: "a number",
  Boolean: "true or false",
};
