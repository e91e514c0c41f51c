import type { AssistantMode, CallStatus, CallType, LeadStatus, WidgetPosition } from "./generated/graphql.ts";

/**
 * A GraphQL enum as the legacy API spells it. Enum names are the REST spellings with `-` written `_`
 * (`in-progress` is `in_progress`), since GraphQL names cannot hold a hyphen; see docs/graphql.md.
 */
export class RestEnum<Name extends string> {
  private readonly names: ReadonlyMap<string, Name>;

  constructor(
    /** The GraphQL enum, as variable coercion errors name it. */
    readonly type: string,
    private readonly spellings: Readonly<Record<Name, string>>,
    /** The legacy API's answer to a value it does not know. */
    readonly unknownValueMessage: string,
  ) {
    this.names = new Map(
      Object.entries<string>(spellings).map(([name, spelling]) => [spelling, name as Name]),
    );
  }

  /**
   * The variable for a REST value: its GraphQL name, nothing for an empty value, and anything else as
   * given for GraphQL to refuse, with `_` written `-` so that no GraphQL name passes under a spelling REST
   * does not use (`in_progress`).
   */
  variable(value: string | null | undefined): string | undefined {
    if (value === null || value === undefined || value === "") return undefined;
    return this.names.get(value) ?? value.replaceAll("_", "-");
  }

  /** Every REST spelling, for the API's reference. */
  get values(): [string, ...string[]] {
    return Object.values<string>(this.spellings) as [string, ...string[]];
  }

  /** The REST spelling of a value GraphQL returned. */
  rest(name: Name): string {
    return this.spellings[name];
  }
}

const oneOf = (field: string, spellings: Readonly<Record<string, string>>) =>
  `The ${field} field must be one of ${Object.values(spellings).join(", ")}.`;

const callTypes: Record<CallType, string> = { inbound: "inbound", outbound: "outbound", web: "web" };
const leadStatuses: Record<LeadStatus, string> = {
  created: "created",
  scheduled: "scheduled",
  processing: "processing",
  completed: "completed",
  rescheduled: "rescheduled",
  reached_max_retries: "reached-max-retries",
  blacklisted: "blacklisted",
};

export const CALL_STATUS = new RestEnum<CallStatus>(
  "CallStatus",
  {
    initiated: "initiated",
    ringing: "ringing",
    busy: "busy",
    in_progress: "in-progress",
    ended: "ended",
    completed: "completed",
    ended_by_customer: "ended_by_customer",
    ended_by_assistant: "ended_by_assistant",
    no_answer: "no-answer",
    failed: "failed",
  },
  "The selected status is invalid.",
);
export const CALL_TYPE = new RestEnum<CallType>("CallType", callTypes, oneOf("type", callTypes));
export const LEAD_STATUS = new RestEnum<LeadStatus>(
  "LeadStatus",
  leadStatuses,
  oneOf("status", leadStatuses),
);
export const ASSISTANT_MODE = new RestEnum<AssistantMode>(
  "AssistantMode",
  { pipeline: "pipeline", multimodal: "multimodal", dualplex: "dualplex" },
  "The selected mode is invalid (pipeline, multimodal or dualplex).",
);
export const WIDGET_POSITION = new RestEnum<WidgetPosition>(
  "WidgetPosition",
  { bottom_right: "bottom-right", bottom_left: "bottom-left" },
  "The selected position is invalid (bottom-right or bottom-left).",
);

const byType = new Map<string, RestEnum<string>>(
  [CALL_STATUS, CALL_TYPE, LEAD_STATUS, ASSISTANT_MODE].map((restEnum) => [restEnum.type, restEnum]),
);

/** How the legacy API refuses a value outside a GraphQL enum, on the field `label` names. */
export function unknownEnumValueMessage(type: string, label: string): string {
  return byType.get(type)?.unknownValueMessage ?? `The selected ${label} is invalid.`;
}
