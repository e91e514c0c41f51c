import type OpenAI from "openai";
import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { UpstreamFailedError } from "../../errors.ts";
import { deploymentModelClient, openai } from "../../openai.ts";
import type { CriterionVerdict, TranscriptEntry } from "./scenario-rules.ts";

/** The judge's name for its structured output: tests and logs tell its requests apart by it. */
export const JUDGE_SCHEMA_NAME = "test_verdict";

const INSTRUCTIONS = [
  "You judge a test conversation between a business's AI assistant and a simulated customer.",
  "For each numbered criterion, decide from the transcript alone whether the assistant met it, and say why in one or two sentences.",
  "Answer only with the JSON object the schema describes, one verdict per criterion, in the criteria's order.",
].join(" ");

const VERDICT_SCHEMA = {
  type: "object",
  properties: {
    verdicts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          criterion: { type: "integer", description: "The criterion's number." },
          passed: { type: "boolean" },
          reasoning: { type: "string" },
        },
        required: ["criterion", "passed", "reasoning"],
        additionalProperties: false,
      },
    },
  },
  required: ["verdicts"],
  additionalProperties: false,
} as const;

const Verdicts = z.object({
  verdicts: z.array(z.object({ criterion: z.number().int(), passed: z.boolean(), reasoning: z.string() })),
});

export function transcriptText(transcript: readonly TranscriptEntry[]): string {
  return transcript
    .map((entry) => `${entry.role === "customer" ? "Customer" : "Assistant"}: ${entry.content}`)
    .join("\n");
}

/**
 * The LLM judge: plain-words criteria against a transcript, answered as a strict JSON schema (the
 * structured-output path of the post-call evaluation) and checked again on return. A verdict
 * missing for a criterion fails that criterion rather than passing it silently.
 */
export class Judge {
  private readonly client: OpenAI | null;

  constructor(private readonly deps: ServiceDeps) {
    this.client = deploymentModelClient(deps.config, 1);
  }

  async judge(
    criteria: readonly string[],
    transcript: readonly TranscriptEntry[],
  ): Promise<CriterionVerdict[]> {
    if (criteria.length === 0) return [];
    if (!this.client) throw new UpstreamFailedError("no language model is configured on this server.");
    const numbered = criteria.map((criterion, index) => `${index + 1}. ${criterion}`).join("\n");
    let content: string;
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.deps.config.openai.model,
          temperature: 0,
          messages: [
            { role: "system", content: INSTRUCTIONS },
            {
              role: "user",
              content: `Criteria:\n${numbered}\n\nTranscript:\n${transcriptText(transcript)}`,
            },
          ],
          response_format: {
            type: "json_schema",
            json_schema: { name: JUDGE_SCHEMA_NAME, strict: true, schema: VERDICT_SCHEMA },
          },
        },
        { timeout: this.deps.config.evaluation.timeoutMs },
      );
      content = completion.choices[0]?.message.content ?? "";
    } catch (error) {
      const sdk = openai();
      if (error instanceof sdk.APIError)
        throw new UpstreamFailedError(`the judge's model answered HTTP ${error.status ?? "error"}.`);
      throw new UpstreamFailedError("the judge's model could not be reached.");
    }
    let parsed: z.output<typeof Verdicts>;
    try {
      parsed = Verdicts.parse(JSON.parse(content));
    } catch {
      throw new UpstreamFailedError("the judge's verdict does not follow the schema.");
    }
    return criteria.map((criterion, index) => {
      const verdict = parsed.verdicts.find((candidate) => candidate.criterion === index + 1);
      return verdict
        ? { criterion, passed: verdict.passed, reasoning: verdict.reasoning }
        : { criterion, passed: false, reasoning: "The judge gave no verdict for this criterion." };
    });
  }
}
