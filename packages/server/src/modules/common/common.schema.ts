import { GraphQLError, Kind, type ValueNode } from "graphql";
import { builder } from "../../builder.ts";

builder.scalarType("DateTime", {
  description: "An instant in time, as an ISO 8601 string in UTC (e.g. 2026-01-31T09:30:00.000Z).",
  serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
  parseValue: (value) => {
    const date = typeof value === "string" ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError("DateTime must be an ISO 8601 string.");
    return date;
  },
});

builder.scalarType("Decimal", {
  description:
    'An exact decimal number, as a string (e.g. "12.5000"), so that money never passes through a binary float.',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if ((typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) || typeof value === "number") {
      return String(value).trim();
    }
    throw new GraphQLError('Decimal must be a decimal number written as a string, e.g. "0.70".');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT) return node.value;
    throw new GraphQLError("Decimal must be a decimal number written as a string.");
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function parseJsonLiteral(node: ValueNode): unknown {
    switch (node.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return node.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(node.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return node.values.map(parseJsonLiteral);
      case Kind.OBJECT:
        return Object.fromEntries(
          node.fields.map((field) => [field.name.value, parseJsonLiteral(field.value)]),
        );
      default:
        throw new GraphQLError("JSON literals cannot contain variables.");
    }
  },
});
