import { html, nothing } from "lit";
import { href, type Route } from "./router.ts";

const NAV: [section: string, label: string][] = [
  ["insights", "Overview"],
  ["assistants", "Assistants"],
  ["knowledge", "Knowledge"],
  ["inbox", "Inbox"],
  ["calls", "Calls"],
  ["campaigns", "Campaigns"],
  ["appointments", "Appointments"],
  ["calendars", "Calendars"],
  ["numbers", "Phone numbers"],
  ["keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["billing", "Balance"],
  ["admin", "Admin"],
  ["tests", "Tests"],
  ["team", "Team"],
];

/**
 * Sections an agent does not see (docs/console.md#team): the server refuses their operations to agents
 * regardless; hiding them keeps the navigation to what an agent can use.
 */
const MANAGER_SECTIONS = new Set(["numbers", "calendars", "keys", "webhooks", "billing", "admin", "team"]);

/** The navigation's links, the current section marked; Admin only for an operator (the server decides anyway). */
export function renderNav(route: Route, isOperator: boolean, role: string | null) {
  return NAV.filter(
    ([section]) =>
      (section !== "admin" || isOperator) && (!MANAGER_SECTIONS.has(section) || role !== "agent"),
  ).map(
    ([section, label]) => html`<li>
                <a href=${href(section)} aria-current=${route.section === section ? "page" : "false"}>${label}${
                  section === "inbox" ? html`<vx-unread-badge></vx-unread-badge>` : nothing
                }</a>
              </li>`,
  );
}

/** The screen element a route shows (its chunk defines it: screen-chunks.ts), or "Not found". */
export function renderScreen(route: Route) {
  const { section, id, rest } = route;
  switch (section) {
    case "assistants":
      return id
        ? html`<vx-assistant-editor .assistantId=${id === "new" ? null : Number(id)}></vx-assistant-editor>`
        : html`<vx-assistants></vx-assistants>`;
    case "knowledge":
      return id
        ? html`<vx-knowledgebase .knowledgebaseId=${Number(id)}></vx-knowledgebase>`
        : html`<vx-knowledgebases></vx-knowledgebases>`;
    case "inbox":
      return html`<vx-inbox .conversationId=${id}></vx-inbox>`;
    case "calls":
      return id ? html`<vx-call .callId=${Number(id)}></vx-call>` : html`<vx-calls></vx-calls>`;
    case "campaigns":
      return id
        ? html`<vx-campaign .campaignId=${id === "new" ? null : Number(id)} .tab=${rest[0] ?? "settings"}></vx-campaign>`
        : html`<vx-campaigns></vx-campaigns>`;
    case "appointments":
      return html`<vx-appointments></vx-appointments>`;
    case "calendars":
      return html`<vx-calendars .connectionId=${id === null ? null : Number(id)}></vx-calendars>`;
    case "numbers":
      return html`<vx-phone-numbers></vx-phone-numbers>`;
    case "keys":
      return html`<vx-api-keys></vx-api-keys>`;
    case "webhooks":
      return html`<vx-webhooks></vx-webhooks>`;
    case "billing":
      return html`<vx-billing></vx-billing>`;
    case "admin":
      return id
        ? html`<vx-admin-account .accountId=${Number(id)}></vx-admin-account>`
        : html`<vx-admin></vx-admin>`;
    case "tests":
      return renderTests(id, rest);
    case "team":
      return html`<vx-team></vx-team>`;
    case "insights":
      return html`<vx-insights></vx-insights>`;
    default:
      return html`<h1>Not found</h1><p>No such page. <a href=${href("assistants")}>Go to assistants</a>.</p>`;
  }
}

/** `#/tests/<assistantId>[/scenario/<id|new> | /run/<id> | /compare/<a>/<b>]` (screens/tests.ts). */
function renderTests(id: string | null, rest: string[]) {
  if (id === null) return html`<vx-tests-picker></vx-tests-picker>`;
  const assistantId = Number(id);
  const [view, first, second] = rest;
  if (view === "scenario")
    return html`<vx-test-scenario .assistantId=${assistantId} .scenarioId=${first === "new" ? null : Number(first)}></vx-test-scenario>`;
  if (view === "run")
    return html`<vx-test-run .assistantId=${assistantId} .runId=${Number(first)}></vx-test-run>`;
  if (view === "compare")
    return html`<vx-test-compare .assistantId=${assistantId} .beforeRunId=${Number(first)} .afterRunId=${Number(second)}></vx-test-compare>`;
  return html`<vx-tests .assistantId=${assistantId}></vx-tests>`;
}
