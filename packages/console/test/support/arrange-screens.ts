import { graphql } from "./console.ts";

/**
 * Every screen of the console with data in it, as an operator of an account with one of everything sees
 * it: each screen's address and its level-1 heading. Arranged through the API as the signed-in test page.
 */
export async function arrangeScreens(): Promise<[hash: string, heading: RegExp][]> {
  const line = `+1415556${String(Date.now() % 10_000).padStart(4, "0")}`;
  const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
    `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}", smsCapable: true }) { id } }`,
  );
  const { createAssistant } = await graphql<{ createAssistant: { id: number; uuid: string } }>(
    `mutation { createAssistant(input: { name: "Front desk", type: inbound, phoneNumberId: ${addPhoneNumber.id}, widgetSettings: { voice: true } }) { id uuid } }`,
  );
  const { startWidgetConversation } = await graphql<{
    startWidgetConversation: { conversationId: string };
  }>(
    `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
  );
  await graphql(
    `mutation { sendWidgetMessage(input: { conversationId: "${startWidgetConversation.conversationId}", message: "Are you open today?", pageUrl: ${JSON.stringify(location.href)} }) { reply } }`,
  );
  // The team inbox's states: assigned, a private note, visitor details, another conversation unread
  // (the navigation's badge).
  const { viewer: member } = await graphql<{ viewer: { id: number } }>("{ viewer { id } }");
  await graphql(
    `mutation { assignConversation(id: "${startWidgetConversation.conversationId}", userId: ${member.id}) { id } }`,
  );
  await graphql(
    `mutation { addConversationNote(input: { conversationId: "${startWidgetConversation.conversationId}", content: "Regular customer" }) { id } }`,
  );
  const { startWidgetConversation: unread } = await graphql<{
    startWidgetConversation: { conversationId: string };
  }>(
    `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
  );
  await graphql(
    `mutation { sendWidgetMessage(input: { conversationId: "${unread.conversationId}", message: "Hello?" }) { reply } }`,
  );
  const { simulateInboundCall } = await graphql<{ simulateInboundCall: { id: number } }>(
    `mutation { simulateInboundCall(input: { from: "+14155550123", phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
  );
  const { createKnowledgebase } = await graphql<{ createKnowledgebase: { id: number } }>(
    'mutation { createKnowledgebase(input: { name: "Shop FAQ" }) { id } }',
  );
  const { createCampaign } = await graphql<{ createCampaign: { id: number } }>(
    `mutation { createCampaign(input: { name: "Spring follow-up", assistantId: ${createAssistant.id} }) { id } }`,
  );
  await graphql(
    `mutation { createLead(input: { campaignId: ${createCampaign.id}, phoneNumber: "+14155550199" }) { id } }`,
  );
  const { createTestScenario } = await graphql<{ createTestScenario: { id: number } }>(
    `mutation { createTestScenario(input: { assistantId: ${createAssistant.id}, name: "Opening hours", script: ["Are you open today?"], criteria: ["Says when the shop is open"] }) { id } }`,
  );
  await graphql(
    `mutation { createTestSuite(input: { name: "Front desk basics", scenarioIds: [${createTestScenario.id}] }) { id } }`,
  );
  const { viewer } = await graphql<{ viewer: { account: { id: number } } }>("{ viewer { account { id } } }");
  const { inviteMember } = await graphql<{ inviteMember: { token: string } }>(
    `mutation { inviteMember(input: { email: "agent-${Date.now()}@example.com", role: agent }) { token } }`,
  );
  return [
    ["#/assistants", /^Assistants$/],
    ["#/assistants/new", /^New assistant$/],
    [`#/assistants/${createAssistant.id}`, /^Front desk$/],
    ["#/knowledge", /^Knowledge bases$/],
    [`#/knowledge/${createKnowledgebase.id}`, /Shop FAQ/],
    ["#/inbox", /^Inbox$/],
    [`#/inbox/${startWidgetConversation.conversationId}`, /^Inbox$/],
    ["#/calls", /^Calls$/],
    [`#/calls/${simulateInboundCall.id}`, new RegExp(`^Call ${simulateInboundCall.id}`)],
    ["#/campaigns", /^Campaigns$/],
    ["#/campaigns/new", /^New campaign$/],
    [`#/campaigns/${createCampaign.id}`, /^Spring follow-up$/],
    [`#/campaigns/${createCampaign.id}/leads`, /^Spring follow-up$/],
    ["#/appointments", /^Appointments$/],
    ["#/calendars", /^Calendars$/],
    ["#/numbers", /^Phone numbers$/],
    ["#/keys", /^API keys$/],
    ["#/webhooks", /^Webhooks$/],
    ["#/billing", /^Balance$/],
    ["#/tests", /^Tests$/],
    [`#/tests/${createAssistant.id}`, /^Tests: Front desk$/],
    [`#/tests/${createAssistant.id}/scenario/${createTestScenario.id}`, /^Opening hours$/],
    [`#/tests/${createAssistant.id}/scenario/new`, /^New scenario$/],
    ["#/admin", /^Administration$/],
    [`#/admin/${viewer.account.id}`, new RegExp(`^Account ${viewer.account.id}$`)],
    ["#/nowhere", /^Not found$/],
    ["#/team", /^Team$/],
    [`#/invite/${inviteMember.token}`, /^Join Voxgate$/],
    ["#/insights", /^Overview$/],
  ];
}
