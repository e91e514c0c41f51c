import { z } from "zod";

/** One entry of an assistant's post_call_schema (checked on create and update). */
export interface PostCallField {
  name: string;
  type: "string" | "bool" | "number" | "integer";
  description: string;
}

/** What is asked for when the assistant's schema is empty: the spec's sample keys. */
export const DEFAULT_FIELDS: readonly PostCallField[] = [
  {
    name: "sentiment",
    type: "string",
    description: "The customer's overall sentiment: positive, neutral or negative.",
  },
  { name: "outcome", type: "string", description: "What the conversation achieved, in a few words." },
  {
    name: "score",
    type: "number",
    description: "How well the conversation went for the business, from 0 to 10.",
  },
];

const JSON_TYPES = { string: "string", bool: "boolean", number: "number", integer: "integer" } as const;

export function fieldsOf(postCallSchema: unknown): readonly PostCallField[] {
  const fields = Array.isArray(postCallSchema) ? (postCallSchema as PostCallField[]) : [];
  return fields.length > 0 ? fields : DEFAULT_FIELDS;
}

/**
 * The JSON schema given to the model's structured output (strict: every field required, nothing
 * else), so that a conforming model can only answer with the assistant's fields.
 */
export function jsonSchemaOf(fields: readonly PostCallField[]) {
  return {
    type: "object",
    properties: Object.fromEntries(
      fields.map((field) => [field.name, { type: JSON_TYPES[field.type], description: field.description }]),
    ),
    required: fields.map((field) => field.name),
    additionalProperties: false,
  };
}

/** The same schema as a validator of what came back: a model that ignores the schema is caught. */
export function validatorOf(fields: readonly PostCallField[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    shape[field.name] =
      field.type === "string"
        ? z.string()
        : field.type === "bool"
          ? z.boolean()
          : field.type === "integer"
            ? z.number().int()
            : z.number();
  }
  return z.object(shape).strict();
}
