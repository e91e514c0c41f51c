import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { page } from "vitest/browser";
import { callStatus, campaignStatus, humanize, leadStatus } from "../src/status-words.ts";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

/** Answers the console's `confirm` questions in turn with `answers`, and records what was asked. */
function answerConfirms(...answers: boolean[]): string[] {
  const original = window.confirm;
  onTestFinished(() => {
    window.confirm = original;
  });
  const asked: string[] = [];
  window.confirm = (message) => {
    asked.push(String(message));
    return answers[asked.length - 1] ?? false;
  };
  return asked;
}

async function addNumber(): Promise<number> {
  const line = `+1415557${String(Date.now() % 10_000).padStart(4, "0")}`;
  const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
    `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}" }) { id } }`,
  );
  return addPhoneNumber.id;
}

describe("statuses as words", () => {
  it("maps the API's values to words, and reads a value it does not know as words too", () => {
    expect(callStatus("in_progress")).toBe("In progress");
    expect(callStatus("ended_by_customer")).toBe("Ended by the caller");
    expect(callStatus("no_answer")).toBe("No answer");
    expect(campaignStatus("draft")).toBe("Draft");
    expect(leadStatus("reached_max_retries")).toBe("Out of retries");
    expect(leadStatus("processing")).toBe("Calling");
    expect(humanize("some_new-state")).toBe("Some new state");
    expect(callStatus(null)).toBe("—");
  });

  it("shows calls, campaigns and leads with words: the leads table in the summary's words", async () => {
    await signIn(await createAccount(), "#/calls");
    const phoneNumberId = await addNumber();
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      `mutation { createAssistant(input: { name: "Front desk", type: inbound, phoneNumberId: ${phoneNumberId} }) { id } }`,
    );
    const { simulateInboundCall } = await graphql<{ simulateInboundCall: { id: number } }>(
      `mutation { simulateInboundCall(input: { from: "+14155550123", phoneNumberId: ${phoneNumberId} }) { id } }`,
    );
    const { createCampaign } = await graphql<{ createCampaign: { id: number } }>(
      `mutation { createCampaign(input: { name: "Spring follow-up", assistantId: ${createAssistant.id} }) { id } }`,
    );
    await graphql(
      `mutation { createLead(input: { campaignId: ${createCampaign.id}, phoneNumber: "+14155550199" }) { id } }`,
    );

    // The calls list and the call's page: the status in words, never the API's value.
    await page.getByRole("button", { name: "Filter" }).click();
    const table = page.getByRole("table");
    await expect.element(table).toHaveTextContent("+14155550123");
    const badges = () =>
      [...table.element().querySelectorAll(".badge")].map((badge) => badge.textContent?.trim() ?? "");
    // The call may move on meanwhile (live): the list and the API agree once it settles.
    await expect
      .poll(async () => {
        const { call } = await graphql<{ call: { status: string } }>(
          `{ call(id: ${simulateInboundCall.id}) { status } }`,
        );
        return badges().includes(callStatus(call.status));
      })
      .toBe(true);
    for (const words of badges()) expect(words).not.toMatch(/_/);
    // The filter offers the same words, and sends the API's value.
    await page.getByLabelText("Status").selectOptions("Ended by the caller");
    await expect.element(page.getByLabelText("Status")).toHaveValue("ended_by_customer");
    await page.getByLabelText("Status").selectOptions("Busy");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.element(page.getByText("No calls match these filters.")).toBeVisible();

    location.hash = `#/calls/${simulateInboundCall.id}`;
    const heading = page.getByRole("heading", {
      level: 1,
      name: new RegExp(`Call ${simulateInboundCall.id}`),
    });
    await expect.element(heading).toBeVisible();
    expect(heading.element().querySelector(".badge")?.textContent).not.toMatch(/_/);

    location.hash = "#/campaigns";
    const campaigns = page.getByRole("table");
    await expect.element(campaigns).toHaveTextContent("Spring follow-up");
    await expect.element(campaigns.getByRole("cell", { name: "Draft", exact: true })).toBeVisible();

    location.hash = `#/campaigns/${createCampaign.id}/leads`;
    await expect.element(page.getByTestId("campaign-status")).toHaveTextContent("Draft");
    const progress = page.getByRole("region", { name: "Progress" });
    await expect.element(progress).toHaveTextContent("1 leads: 0 completed, 0 calling, 1 waiting");
    const leads = page.getByRole("table", { name: "Leads" });
    await expect.element(leads.getByRole("cell", { name: "Waiting", exact: true })).toBeVisible();
  });
});

describe("empty states", () => {
  it("says what to do next on every empty list, with a link where there is one", async () => {
    await signIn(await createAccount(), "#/assistants");
    await expect.element(page.getByText("No assistants yet.")).toBeVisible();
    await page.getByRole("link", { name: "Create your first assistant" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "New assistant" })).toBeVisible();

    location.hash = "#/calls";
    await expect.element(page.getByText("No calls yet.")).toBeVisible();
    const calls = page.getByTestId("empty-state");
    await expect.element(calls.getByRole("link", { name: "open an assistant" })).toBeVisible();
    await expect.element(calls.getByRole("link", { name: "phone number" })).toBeVisible();

    location.hash = "#/knowledge";
    await expect.element(page.getByText("No knowledge bases yet.")).toBeVisible();
    await expect.element(page.getByTestId("empty-state")).toHaveTextContent(/Create one below/);

    location.hash = "#/inbox";
    await expect.element(page.getByText("No open widget or SMS conversations.")).toBeVisible();
    await expect
      .element(page.getByTestId("empty-state").getByRole("link", { name: "Open an assistant" }))
      .toBeVisible();

    location.hash = "#/numbers";
    await expect.element(page.getByText("No phone numbers yet.")).toBeVisible();
    location.hash = "#/keys";
    await expect.element(page.getByText("No API keys yet.")).toBeVisible();

    location.hash = "#/campaigns";
    await expect.element(page.getByText("No campaigns yet.")).toBeVisible();
    await page.getByRole("link", { name: "Create your first campaign" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "New campaign" })).toBeVisible();
    await page.getByLabelText("Name").fill("Autumn");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "Autumn" })).toBeVisible();
    await page.getByRole("tab", { name: "Leads" }).click();
    await expect.element(page.getByText("No leads yet.")).toBeVisible();
    await expect.element(page.getByTestId("empty-state")).toHaveTextContent(/Import them from a CSV file/);
  });
});

describe("knowledge bases: rename and delete", () => {
  it("renames a knowledge base (the server's message under an empty name) and deletes it after asking", async () => {
    await signIn(await createAccount(), "#/knowledge");
    const { createKnowledgebase } = await graphql<{ createKnowledgebase: { id: number } }>(
      'mutation { createKnowledgebase(input: { name: "Shop FAQ", description: "Returns" }) { id } }',
    );
    location.hash = `#/knowledge/${createKnowledgebase.id}`;
    await expect.element(page.getByRole("heading", { level: 1, name: /Shop FAQ/ })).toBeVisible();

    const name = page.getByRole("textbox", { name: "Name", exact: true });
    await expect.element(name).toHaveValue("Shop FAQ");
    await name.fill(" ");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect.element(name).toHaveAccessibleDescription("The name field is required.");

    await name.fill("Store FAQ");
    await page.getByRole("textbox", { name: "Description" }).fill("Returns and delivery");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: /Store FAQ/ })).toBeVisible();
    await expect.element(page.getByText("Saved.")).toBeVisible();
    const { knowledgebase } = await graphql<{ knowledgebase: { name: string; description: string } }>(
      `{ knowledgebase(id: ${createKnowledgebase.id}) { name description } }`,
    );
    expect(knowledgebase).toEqual({ name: "Store FAQ", description: "Returns and delivery" });

    // Declined, it stays; confirmed, it goes and the list says what to do next.
    const asked = answerConfirms(false, true);
    await page.getByRole("button", { name: "Delete knowledge base" }).click();
    expect(asked).toEqual(["Delete Store FAQ and its 0 documents? No assistant uses it."]);
    await expect.element(page.getByRole("heading", { level: 1, name: /Store FAQ/ })).toBeVisible();
    await page.getByRole("button", { name: "Delete knowledge base" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "Knowledge bases" })).toBeVisible();
    await expect.element(page.getByText("No knowledge bases yet.")).toBeVisible();
    const { knowledgebases } = await graphql<{ knowledgebases: unknown[] }>("{ knowledgebases { id } }");
    expect(knowledgebases).toEqual([]);
  });
});

describe("campaigns and leads: delete", () => {
  it("deletes a lead and then the campaign, each after asking", async () => {
    await signIn(await createAccount(), "#/campaigns");
    const { createCampaign } = await graphql<{ createCampaign: { id: number } }>(
      'mutation { createCampaign(input: { name: "Spring follow-up" }) { id } }',
    );
    for (const phoneNumber of ["+14155550101", "+14155550102"]) {
      await graphql(
        `mutation { createLead(input: { campaignId: ${createCampaign.id}, phoneNumber: "${phoneNumber}" }) { id } }`,
      );
    }
    location.hash = `#/campaigns/${createCampaign.id}/leads`;
    const leads = page.getByRole("table", { name: "Leads" });
    await expect.element(leads).toHaveTextContent("+14155550102");

    const asked = answerConfirms(false, true, false, true);
    await page.getByRole("button", { name: "Delete lead +14155550101" }).click();
    expect(asked).toEqual(["Delete the lead +14155550101? It is no longer called."]);
    await expect.element(leads).toHaveTextContent("+14155550101");
    await page.getByRole("button", { name: "Delete lead +14155550101" }).click();
    await expect.element(leads).not.toHaveTextContent("+14155550101");
    await expect.element(leads).toHaveTextContent("+14155550102");
    // The summary follows live (campaignProgress).
    await expect.element(page.getByRole("region", { name: "Progress" })).toHaveTextContent("1 leads:");

    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Delete campaign" }).click();
    expect(asked[2]).toBe(
      "Delete the campaign Spring follow-up? Its lead is no longer called; calls already made stay in Calls.",
    );
    await expect.element(page.getByRole("heading", { level: 1, name: "Spring follow-up" })).toBeVisible();
    await page.getByRole("button", { name: "Delete campaign" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "Campaigns" })).toBeVisible();
    await expect.element(page.getByText("No campaigns yet.")).toBeVisible();
    const { campaigns } = await graphql<{ campaigns: { items: unknown[] } }>(
      "{ campaigns { items { id } } }",
    );
    expect(campaigns.items).toEqual([]);
  });
});
