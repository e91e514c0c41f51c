import {
  type DefinitionNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  Kind,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { type FieldErrors, ValidationError } from "./errors.ts";
import { isUploadedFile } from "./modules/knowledge/ingestion/file-types.ts";
import { isWellFormedText } from "./storable-text.mjs";

/*
 * Text PostgreSQL cannot store (see `storable-text.mjs`) would reach the database and fail there as an
 * unexpected error, possibly after part of the work (or a charge) was done, so every string of every
 * operation is checked once, before anything runs.
 */

/**
 * Refuses, over every transport (HTTP, SSE, WebSocket and the REST layer, which all execute through Yoga's
 * envelope), an operation whose variables or inline arguments hold such a string anywhere: in a value, an
 * object key of a JSON value, or an uploaded file's name. The answer is VALIDATION_FAILED naming each field
 * by its input path, as service validation does (without the `input` wrapper argument).
 */
export function useWellFormedText(): Plugin {
  const refuse = (args: ExecutionArgs, stop: (result: ExecutionResult) => void) => {
    const fields = malformedFields(args.document, args.variableValues ?? {});
    if (Object.keys(fields).length > 0) stop({ errors: [new ValidationError(fields)] });
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => refuse(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => refuse(args, setResultAndStopExecution),
  };
}

function malformedFields(document: DocumentNode, variables: Readonly<Record<string, unknown>>): FieldErrors {
  const fields: FieldErrors = {};
  const report = (path: (string | number)[], inKeys: boolean) => {
    const field = fieldName(path);
    const label = labelOf(field);
    const message = inKeys
      ? `The keys of the ${label} field must not contain NUL characters or unpaired surrogates.`
      : `The ${label} field must not contain NUL characters or unpaired surrogates.`;
    const messages = fields[field] ?? [];
    if (!messages.includes(message)) messages.push(message);
    fields[field] = messages;
  };

  // Iterative, with paths linked to their parent: a deeply nested JSON variable must not exhaust the stack.
  const walkVariables = () => {
    const pending: { value: unknown; path: PathLink }[] = Object.entries(variables).map(([name, value]) => ({
      value,
      path: { key: name, parent: null },
    }));
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { value, path } = next;
      if (typeof value === "string") {
        if (!isWellFormedText(value)) report(pathOf(path), false);
      } else if (isUploadedFile(value)) {
        // Its name is stored with the document it becomes.
        if (value.name !== undefined && !isWellFormedText(value.name)) report(pathOf(path), false);
      } else if (Array.isArray(value)) {
        for (const [index, item] of value.entries())
          pending.push({ value: item, path: { key: index, parent: path } });
      } else if (value !== null && typeof value === "object") {
        for (const [key, item] of Object.entries(value)) {
          // The offending key itself is not echoed back: the message names the object holding it.
          if (isWellFormedText(key)) pending.push({ value: item, path: { key, parent: path } });
          else report(pathOf(path), true);
        }
      }
    }
  };

  const walkLiteral = (node: ValueNode, path: (string | number)[]) => {
    if (node.kind === Kind.STRING) {
      if (!isWellFormedText(node.value)) report(path, false);
    } else if (node.kind === Kind.LIST) {
      for (const [index, item] of node.values.entries()) walkLiteral(item, [...path, index]);
    } else if (node.kind === Kind.OBJECT) {
      for (const field of node.fields) walkLiteral(field.value, [...path, field.name.value]);
    }
  };

  const walkSelections = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      for (const directive of selection.directives ?? []) {
        for (const argument of directive.arguments ?? []) walkLiteral(argument.value, [argument.name.value]);
      }
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) walkLiteral(argument.value, [argument.name.value]);
      }
      if (selection.kind !== Kind.FRAGMENT_SPREAD) walkSelections(selection.selectionSet);
    }
  };

  const walkDefinition = (definition: DefinitionNode) => {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      for (const variable of definition.variableDefinitions ?? []) {
        if (variable.defaultValue) walkLiteral(variable.defaultValue, [variable.variable.name.value]);
      }
      walkSelections(definition.selectionSet);
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      walkSelections(definition.selectionSet);
    }
  };

  walkVariables();
  for (const definition of document.definitions) walkDefinition(definition);
  return fields;
}

interface PathLink {
  key: string | number;
  parent: PathLink | null;
}

function pathOf(link: PathLink): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: PathLink | null = link; at; at = at.parent) path.unshift(at.key);
  return path;
}

/** The dotted input path; the wrapper argument or variable most operations take (`input`) is not a field. */
function fieldName(path: (string | number)[]): string {
  const dotted = path.join(".");
  return dotted.startsWith("input.") ? dotted.slice("input.".length) : dotted;
}

/** `customerIdentifier` (or `customer_name`) in `contacts.0.customerIdentifier` reads "customer identifier". */
function labelOf(field: string): string {
  const last = field.split(".").findLast((segment) => !/^\d+$/.test(segment)) ?? field;
  return last.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replaceAll("_", " ");
}
