import { builder } from "../../builder.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * A GraphQL enum of values the API spells in lower case. GraphQL names cannot hold a hyphen, so a
 * value's name is its spelling with `-` written `_` (`in-progress` is `in_progress`); resolvers and
 * services keep working with the spelling, which is also what the REST API shows.
 *
 * Resolvers may return any string: several of these values live in text columns, and GraphQL refuses
 * to serialize one outside the enum, so a bad stored value fails loudly instead of leaking. Arguments
 * arrive as one of the spellings.
 */
export function spelledEnum<const Values extends readonly [string, ...string[]]>(
  name: string,
  values: Values,
  options: { description?: string } = {},
): PothosSchemaTypes.EnumRef<Types, string, Values[number]> {
  return builder.enumType(name, {
    ...options,
    values: Object.fromEntries(values.map((value) => [value.replaceAll("-", "_"), { value }])),
  }) as PothosSchemaTypes.EnumRef<Types, string, Values[number]>;
}
