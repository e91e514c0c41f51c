import { z } from "zod";
import { REPLY_BOUNDS } from "../../limits.ts";
import { OutboundRequestError, safeFetch } from "../../net/safe-fetch.ts";
import { storableValue } from "../../storable-text.mjs";

/**
 * One entry of a reply's `function_calls`: what the model asked for and what came of it.
 * `result` is the webhook's JSON answer (or its text when it is not JSON); `error` says why there
 * is no result. Exactly one of them is non-null.
 */
export interface FunctionCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  result: unknown;
  error: string | null;
  duration_ms: number;
}

/**
 * What a website visitor is shown of a function call. Arguments and answers are the business's
 * (a booking system's record, a CRM's fields): public endpoints tell only which function ran and
 * whether it worked.
 */
export interface PublicFunctionCall {
  name: string;
  succeeded: boolean;
}

export function publicFunctionCall(call: FunctionCallRecord): PublicFunctionCall {
  return { name: call.name, succeeded: call.error === null };
}

/** A custom function of an assistant: the model fills `parameters`, the gateway calls `url`. */
export interface WebhookTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  url: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers: Record<string, string>;
  timeoutSeconds: number;
}

const toolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

const WebhookToolSchema = z.object({
  name: toolName,
  description: z.string().max(1024).default(""),
  parameters: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
  url: z.string().url(),
  method: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]))
    .default("POST"),
  headers: z.record(z.string(), z.string()).default({}),
  timeout: z.number().int().min(1).max(REPLY_BOUNDS.toolTimeoutSeconds).default(10),
});

/** The built-in function offered when an assistant's knowledge base is searched on demand. */
export const KNOWLEDGE_TOOL_NAME = "search_knowledge_base";

/**
 * Reads the assistant's `tools` JSON. Each entry is either flat
 * (`{name, description, parameters, url, method, headers, timeout}`) or OpenAI-shaped
 * (`{type: "function", function: {name, description, parameters}, url, ...}`). Entries that are
 * not valid webhook functions are left out (and reported), never sent to the model half-formed.
 */
export function parseWebhookTools(raw: unknown): { tools: WebhookTool[]; invalid: string[] } {
  const tools: WebhookTool[] = [];
  const invalid: string[] = [];
  for (const [index, entry] of (Array.isArray(raw) ? raw : []).entries()) {
    const record = (entry ?? {}) as Record<string, unknown>;
    const nested = (record.function ?? {}) as Record<string, unknown>;
    const parsed = WebhookToolSchema.safeParse({ ...record, ...nested });
    if (!parsed.success || parsed.data.name === KNOWLEDGE_TOOL_NAME) {
      invalid.push(typeof record.name === "string" ? record.name : `#${index}`);
      continue;
    }
    const { timeout, ...tool } = parsed.data;
    tools.push({ ...tool, timeoutSeconds: timeout });
  }
  return { tools, invalid };
}

/** The most of a webhook's answer that is read, and the most of it that is shown to the model. */
const WEBHOOK_MAX_BYTES = 256 * 1024;
export const TOOL_RESULT_MAX_CHARS = 8000;

/**
 * Calls a webhook through the SSRF guard: GET sends the arguments as query parameters, other
 * methods as a JSON body. A redirect to another origin is followed without the tool's configured
 * headers (nor Authorization or Cookie). A non-2xx answer, a blocked address or a timeout is reported as the
 * call's error (the model is told, and may apologise or try something else).
 */
export async function callWebhook(
  tool: WebhookTool,
  args: Record<string, unknown>,
  allowList: readonly string[],
): Promise<FunctionCallRecord> {
  const started = performance.now();
  const finish = (result: unknown, error: string | null): FunctionCallRecord => ({
    name: tool.name,
    arguments: args,
    result,
    error,
    duration_ms: Math.round(performance.now() - started),
  });
  let url = tool.url;
  let body: string | undefined;
  const headers: Record<string, string> = { accept: "application/json", ...tool.headers };
  if (tool.method === "GET") {
    const target = new URL(tool.url);
    for (const [key, value] of Object.entries(args)) {
      target.searchParams.set(key, typeof value === "string" ? value : JSON.stringify(value));
    }
    url = target.toString();
  } else {
    body = JSON.stringify(args);
    headers["content-type"] = "application/json";
  }
  try {
    const response = await safeFetch(url, {
      method: tool.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: tool.timeoutSeconds * 1000,
      maxBytes: WEBHOOK_MAX_BYTES,
      allowList,
      // The owner's headers are secrets for the webhook's own origin: a redirect elsewhere gets none.
      originBoundHeaders: Object.keys(tool.headers),
    });
    const text = response.body.toString("utf8");
    let result: unknown = text;
    try {
      result = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: the text itself is the result.
    }
    if (response.status < 200 || response.status >= 300) {
      return finish(null, `The webhook answered HTTP ${response.status}.`);
    }
    return finish(storableValue(result), null);
  } catch (error) {
    if (error instanceof OutboundRequestError)
      return finish(null, `The webhook could not be called: ${error.message}.`);
    throw error;
  }
}

/** What the model is told about a call's outcome. */
export function toolMessageContent(record: FunctionCallRecord): string {
  const text = record.error
    ? JSON.stringify({ error: record.error })
    : typeof record.result === "string"
      ? record.result
      : JSON.stringify(record.result);
  return text.length > TOOL_RESULT_MAX_CHARS ? `${text.slice(0, TOOL_RESULT_MAX_CHARS)}…` : text;
}
