import type { Route } from "./router.ts";

/** The custom elements a chunk defines: its screens and the elements they nest. */
type Elements = [name: string, element: CustomElementConstructor][];

/**
 * Every screen in a chunk of its own, fetched on the first visit of its route: the first paint needs
 * only the app shell (sign-in, navigation, API client, Lit), whatever the number of screens
 * (docs/console.md, "Size"). A chunk defines the elements its screens nest too, so a screen is whole
 * once its chunk is in; the bundler shares a module two chunks import (the shown-once box, the ledger).
 */
const CHUNKS = {
  assistants: async (): Promise<Elements> => {
    const { VxAssistants } = await import("./screens/assistants.ts");
    return [["vx-assistants", VxAssistants]];
  },
  "assistant-editor": async (): Promise<Elements> => {
    const [{ VxAssistantEditor }, { VxShownOnce }] = await Promise.all([
      import("./screens/assistant-editor.ts"),
      import("./shown-once.ts"),
    ]);
    return [
      ["vx-assistant-editor", VxAssistantEditor],
      ["vx-shown-once", VxShownOnce],
    ];
  },
  knowledge: async (): Promise<Elements> => {
    const [{ VxKnowledgebases }, { VxKnowledgebase }] = await Promise.all([
      import("./screens/knowledgebases.ts"),
      import("./screens/knowledge.ts"),
    ]);
    return [
      ["vx-knowledgebases", VxKnowledgebases],
      ["vx-knowledgebase", VxKnowledgebase],
    ];
  },
  inbox: async (): Promise<Elements> => {
    const [{ VxInbox }, { VxMakeTest }] = await Promise.all([
      import("./screens/inbox.ts"),
      import("./make-test.ts"),
    ]);
    return [
      ["vx-inbox", VxInbox],
      ["vx-make-test", VxMakeTest],
    ];
  },
  calls: async (): Promise<Elements> => {
    const [{ VxCall, VxCalls }, { VxLiveListen }, { VxMakeTest }] = await Promise.all([
      import("./screens/calls.ts"),
      import("./live-listen.ts"),
      import("./make-test.ts"),
    ]);
    return [
      ["vx-calls", VxCalls],
      ["vx-call", VxCall],
      ["vx-live-listen", VxLiveListen],
      ["vx-make-test", VxMakeTest],
    ];
  },
  campaigns: async (): Promise<Elements> => {
    const { VxCampaign, VxCampaigns } = await import("./screens/campaigns.ts");
    return [
      ["vx-campaigns", VxCampaigns],
      ["vx-campaign", VxCampaign],
    ];
  },
  appointments: async (): Promise<Elements> => {
    const { VxAppointments } = await import("./screens/appointments.ts");
    return [["vx-appointments", VxAppointments]];
  },
  calendars: async (): Promise<Elements> => {
    const { VxCalendars } = await import("./screens/calendars.ts");
    return [["vx-calendars", VxCalendars]];
  },
  account: async (): Promise<Elements> => {
    const [{ VxApiKeys, VxBilling, VxPhoneNumbers }, { VxShownOnce }, { VxLedger }, privacy, customerData] =
      await Promise.all([
        import("./screens/account.ts"),
        import("./shown-once.ts"),
        import("./screens/ledger.ts"),
        import("./screens/data-privacy.ts"),
        import("./screens/customer-data.ts"),
      ]);
    return [
      ["vx-phone-numbers", VxPhoneNumbers],
      ["vx-api-keys", VxApiKeys],
      ["vx-billing", VxBilling],
      ["vx-shown-once", VxShownOnce],
      ["vx-ledger", VxLedger],
      ["vx-data-privacy", privacy.VxDataPrivacy],
      ["vx-customer-data", customerData.VxCustomerData],
    ];
  },
  webhooks: async (): Promise<Elements> => {
    const [{ VxWebhooks }, { VxShownOnce }] = await Promise.all([
      import("./screens/webhooks.ts"),
      import("./shown-once.ts"),
    ]);
    return [
      ["vx-webhooks", VxWebhooks],
      ["vx-shown-once", VxShownOnce],
    ];
  },
  admin: async (): Promise<Elements> => {
    const [{ VxAdmin, VxAdminAccount }, { VxLedger }] = await Promise.all([
      import("./screens/admin.ts"),
      import("./screens/ledger.ts"),
    ]);
    return [
      ["vx-admin", VxAdmin],
      ["vx-admin-account", VxAdminAccount],
      ["vx-ledger", VxLedger],
    ];
  },
  tests: async (): Promise<Elements> => {
    const [{ VxTestRun, VxTests, VxTestsPicker }, { VxTestScenario }, { VxTestCompare }] = await Promise.all([
      import("./screens/tests.ts"),
      import("./screens/test-scenario.ts"),
      import("./screens/test-compare.ts"),
    ]);
    return [
      ["vx-tests-picker", VxTestsPicker],
      ["vx-tests", VxTests],
      ["vx-test-scenario", VxTestScenario],
      ["vx-test-run", VxTestRun],
      ["vx-test-compare", VxTestCompare],
    ];
  },
  team: async (): Promise<Elements> => {
    const [{ VxAcceptInvite, VxTeam }, { VxShownOnce }] = await Promise.all([
      import("./screens/team.ts"),
      import("./shown-once.ts"),
    ]);
    return [
      ["vx-team", VxTeam],
      ["vx-accept-invite", VxAcceptInvite],
      ["vx-shown-once", VxShownOnce],
    ];
  },
  insights: async (): Promise<Elements> => {
    const { VxInsights } = await import("./screens/insights.ts");
    return [["vx-insights", VxInsights]];
  },
} satisfies Record<string, () => Promise<Elements>>;

export type Chunk = keyof typeof CHUNKS;

/** The chunk holding `route`'s screen; null for an address no screen answers (the app's "Not found"). */
export function chunkOf(route: Route): Chunk | null {
  switch (route.section) {
    case "assistants":
      return route.id === null ? "assistants" : "assistant-editor";
    case "numbers":
    case "keys":
    case "billing":
      return "account";
    case "invite":
      return "team";
    case "knowledge":
    case "inbox":
    case "calls":
    case "campaigns":
    case "appointments":
    case "calendars":
    case "webhooks":
    case "admin":
    case "tests":
    case "team":
    case "insights":
      return route.section;
    default:
      return null;
  }
}

export type ChunkState = { status: "loading" } | { status: "ready" } | { status: "failed"; message: string };

const LOADING: ChunkState = { status: "loading" };
const READY: ChunkState = { status: "ready" };

/**
 * The chunks one console has asked for, and how each went. A failed one stays failed (the screen shows
 * it, with a retry) until `retry`; `changed` runs whenever a chunk arrives or fails.
 */
export class ScreenChunks {
  #states = new Map<Chunk, ChunkState>();

  constructor(private readonly changed: () => void) {}

  state(chunk: Chunk): ChunkState {
    return this.#states.get(chunk) ?? LOADING;
  }

  /** Starts fetching `chunk` unless it is in, on its way, or failed (see `retry`). */
  load(chunk: Chunk): void {
    if (this.#states.has(chunk)) return;
    this.#states.set(chunk, LOADING);
    CHUNKS[chunk]().then(
      (elements) => {
        // A page that already defined a name keeps its own.
        for (const [name, element] of elements)
          if (!customElements.get(name)) customElements.define(name, element);
        this.#states.set(chunk, READY);
        this.changed();
      },
      (error: unknown) => {
        this.#states.set(chunk, {
          status: "failed",
          message: error instanceof Error ? error.message : String(error),
        });
        this.changed();
      },
    );
  }

  retry(chunk: Chunk): void {
    this.#states.delete(chunk);
    this.load(chunk);
    this.changed();
  }
}
