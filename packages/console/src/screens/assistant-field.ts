import { html, nothing, type TemplateResult } from "lit";
import type { ConsoleAssistantChoicesQuery } from "../generated/graphql.ts";
import { describedBy, type FormErrors, fieldError } from "../screen.ts";
import type { Field, Values } from "./assistant-settings.ts";

/**
 * One setting's control, as its kind asks (checkbox, ticked choices, select, text area, input), with its
 * label, hint and the server's messages; the voice, knowledge base and phone number are chosen from `choices`.
 */
export function renderField(
  field: Field,
  values: Values,
  errors: FormErrors,
  choices: ConsoleAssistantChoicesQuery | null,
): TemplateResult {
  const id = `f-${field.key.replace(".", "-")}`;
  const value = values[field.key];
  const described = describedBy(errors, field.key);
  const hint = field.hint ? html`<span class="hint">${field.hint}</span>` : nothing;
  const error = fieldError(errors, field.key);
  const invalid = errors.fields[field.key] ? "true" : "false";
  if (field.kind === "bool") {
    return html`<div><label class="inline" for=${id}>
      <input id=${id} name=${field.key} type="checkbox" .checked=${value === true} aria-invalid=${invalid} aria-describedby=${described} />
      ${field.label}</label>${error}</div>`;
  }
  if (typeof field.kind === "object" && "choices" in field.kind) {
    const ticked = (value as string[] | undefined) ?? [];
    return html`<fieldset style="grid-column: 1 / -1" aria-describedby=${described}>
      <legend>${field.label}</legend>
      ${field.kind.choices.map(
        (choice) => html`<label class="inline"><input type="checkbox" name=${field.key} value=${choice.value}
          .checked=${ticked.includes(choice.value)} />${choice.label}</label>`,
      )}
      ${hint}${error}</fieldset>`;
  }
  const label = html`<label for=${id}>${field.label}</label>`;
  const wide = field.kind === "textarea" || field.kind === "json" || field.kind === "lines";
  let control: TemplateResult;
  if (typeof field.kind === "object" && "options" in field.kind) {
    control = html`<select id=${id} name=${field.key} aria-invalid=${invalid} aria-describedby=${described}>
      ${field.kind.options.map((option) => html`<option .selected=${value === option} value=${option}>${option}</option>`)}
    </select>`;
  } else if (field.key === "voiceId" || field.key === "knowledgebaseId" || field.key === "phoneNumberId") {
    const options =
      field.key === "voiceId"
        ? (choices?.voices ?? []).map((v) => [v.id, `${v.name} (${v.gender})`] as const)
        : field.key === "knowledgebaseId"
          ? (choices?.knowledgebases ?? []).map((k) => [k.id, k.name] as const)
          : (choices?.phoneNumbers ?? []).map((p) => [p.id, `${p.phoneNumber} ${p.label}`] as const);
    control = html`<select id=${id} name=${field.key} aria-invalid=${invalid} aria-describedby=${described}>
      <option value="">None</option>
      ${options.map(([optionId, name]) => html`<option .selected=${value === optionId} value=${optionId}>${name}</option>`)}
    </select>`;
  } else if (wide) {
    const text =
      field.kind === "json"
        ? JSON.stringify(value ?? (field.key === "variables" ? {} : []), null, 2)
        : field.kind === "lines"
          ? ((value as string[] | undefined) ?? []).join("\n")
          : String(value ?? "");
    control = html`<textarea id=${id} name=${field.key} .value=${text} aria-invalid=${invalid} aria-describedby=${described}></textarea>`;
  } else {
    const type =
      field.kind === "color" ? "color" : field.kind === "int" || field.kind === "float" ? "number" : "text";
    control = html`<input id=${id} name=${field.key} type=${type} step=${field.kind === "float" ? "any" : "1"}
      .value=${value === null || value === undefined ? "" : String(value)} aria-invalid=${invalid} aria-describedby=${described} />`;
  }
  return html`<div style=${wide ? "grid-column: 1 / -1" : ""}>${label}${control}${hint}${error}</div>`;
}
