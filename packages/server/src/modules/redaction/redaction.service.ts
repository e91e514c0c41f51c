import type { ServiceDeps } from "../../deps.ts";
import { isPiiCategory, type PiiCategory } from "./categories.ts";
import { type PiiSpan, redact, redactJson } from "./redact.ts";

/** An assistant's redaction columns. */
export interface RedactionSettings {
  redactPii: string[];
  redactRecordings: boolean;
}

/** An assistant's redaction, resolved once for a piece of work (a turn, an exchange, a text). */
export interface Redactor {
  readonly categories: readonly PiiCategory[];
  /** Whether the caller's turns with redacted words are silenced in the stored recording. */
  readonly recordings: boolean;
  text(text: string): string;
  /** The redacted text and what was found, for callers that act on the spans (recordings). */
  spans(text: string): { text: string; spans: PiiSpan[] };
  json<T>(value: T): T;
}

const NONE: Redactor = {
  categories: [],
  recordings: false,
  text: (text) => text,
  spans: (text) => ({ text, spans: [] }),
  json: (value) => value,
};

/**
 * Where conversation content is redacted on its way to storage or to other systems
 * (docs/data-governance.md#pii-redaction): each writer asks for its assistant's `Redactor` and
 * passes what it stores through it. The live model is given the real words before this point.
 */
export class RedactionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      /** The settings of a live assistant (the reply settings cache); null: deleted or unknown. */
      cached: (accountId: number, assistantId: number) => Promise<RedactionSettings | null>;
    },
  ) {}

  /**
   * The redaction of one of the account's assistants. A deleted assistant's content (a call still
   * ending) is redacted by its settings as they were; no assistant: nothing to redact by.
   */
  async of(accountId: number, assistantId: number | null): Promise<Redactor> {
    if (assistantId === null) return NONE;
    const settings =
      (await this.parts.cached(accountId, assistantId)) ??
      (await this.deps.db.prisma.assistant.findFirst({
        where: { id: assistantId, accountId },
        select: { redactPii: true, redactRecordings: true },
      }));
    return settings ? redactorOf(settings) : NONE;
  }

  /** The redaction of the assistant a call was placed with (a hand-off does not change it). */
  async ofCall(callId: number): Promise<Redactor> {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { accountId: true, assistantId: true },
    });
    return call ? this.of(call.accountId, call.assistantId) : NONE;
  }
}

export function redactorOf(settings: RedactionSettings): Redactor {
  const categories = settings.redactPii.filter(isPiiCategory);
  if (categories.length === 0) return NONE;
  return {
    categories,
    recordings: settings.redactRecordings,
    text: (text) => redact(text, categories).text,
    spans: (text) => redact(text, categories),
    json: (value) => redactJson(value, categories),
  };
}
