import { VxLiveListen } from "./live-listen.ts";
import { VxMakeTest } from "./make-test.ts";
import { VxApiKeys, VxBilling, VxPhoneNumbers } from "./screens/account.ts";
import { VxAdmin, VxAdminAccount } from "./screens/admin.ts";
import { VxAppointments } from "./screens/appointments.ts";
import { VxAssistantEditor } from "./screens/assistant-editor.ts";
import { VxAssistants } from "./screens/assistants.ts";
import { VxCalendars } from "./screens/calendars.ts";
import { VxCall, VxCalls } from "./screens/calls.ts";
import { VxCampaign, VxCampaigns } from "./screens/campaigns.ts";
import { VxCustomerData } from "./screens/customer-data.ts";
import { VxDataPrivacy } from "./screens/data-privacy.ts";
import { VxInbox } from "./screens/inbox.ts";
import { VxInsights } from "./screens/insights.ts";
import { VxKnowledgebase, VxKnowledgebases } from "./screens/knowledge.ts";
import { VxLedger } from "./screens/ledger.ts";
import { VxAcceptInvite, VxTeam } from "./screens/team.ts";
import { VxTestCompare } from "./screens/test-compare.ts";
import { VxTestScenario } from "./screens/test-scenario.ts";
import { VxTestRun, VxTests, VxTestsPicker } from "./screens/tests.ts";
import { VxWebhooks } from "./screens/webhooks.ts";
import { VxShownOnce } from "./shown-once.ts";
import { VxUnreadBadge } from "./unread-badge.ts";
import { VoxgateConsole } from "./voxgate-console.component.ts";

// Registration apart from the components: a page that already defined a name keeps its own.
const elements: [string, CustomElementConstructor][] = [
  ["voxgate-console", VoxgateConsole],
  ["vx-assistants", VxAssistants],
  ["vx-assistant-editor", VxAssistantEditor],
  ["vx-knowledgebases", VxKnowledgebases],
  ["vx-knowledgebase", VxKnowledgebase],
  ["vx-inbox", VxInbox],
  ["vx-calls", VxCalls],
  ["vx-call", VxCall],
  ["vx-campaigns", VxCampaigns],
  ["vx-campaign", VxCampaign],
  ["vx-appointments", VxAppointments],
  ["vx-calendars", VxCalendars],
  ["vx-phone-numbers", VxPhoneNumbers],
  ["vx-api-keys", VxApiKeys],
  ["vx-billing", VxBilling],
  ["vx-ledger", VxLedger],
  ["vx-webhooks", VxWebhooks],
  ["vx-admin", VxAdmin],
  ["vx-admin-account", VxAdminAccount],
  ["vx-shown-once", VxShownOnce],
  ["vx-live-listen", VxLiveListen],
  ["vx-data-privacy", VxDataPrivacy],
  ["vx-tests-picker", VxTestsPicker],
  ["vx-tests", VxTests],
  ["vx-test-scenario", VxTestScenario],
  ["vx-test-run", VxTestRun],
  ["vx-test-compare", VxTestCompare],
  ["vx-make-test", VxMakeTest],
  ["vx-customer-data", VxCustomerData],
  ["vx-team", VxTeam],
  ["vx-accept-invite", VxAcceptInvite],
  ["vx-insights", VxInsights],
  ["vx-unread-badge", VxUnreadBadge],
];
for (const [name, element] of elements) if (!customElements.get(name)) customElements.define(name, element);

export { VoxgateConsole };

declare global {
  interface HTMLElementTagNameMap {
    "voxgate-console": VoxgateConsole;
  }
}
