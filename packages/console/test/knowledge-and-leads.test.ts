import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { commands, page } from "vitest/browser";
import { toE164 } from "../src/csv-import.ts";
import { relevanceWords } from "../src/screens/knowledge-search.ts";
import { violationsInBothThemes } from "./support/axe.ts";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(async () => {
  unmountConsole();
  await commands.setColorScheme("light");
});

/** Forty numbered sentences: several passages at any passage size. */
const SHELVES = Array.from(
  { length: 60 },
  (_, index) =>
    `Rule ${index + 1}: the shop in Lisbon keeps its teapot number ${index + 1} on shelf ${index + 7} of the back room.`,
).join(" ");

/** Drops `file` on the knowledge base's drop zone, as a person dragging it from their desktop. */
function dropFile(file: File): void {
  const data = new DataTransfer();
  data.items.add(file);
  const screen = document.querySelector("voxgate-console")!.shadowRoot!.querySelector("vx-knowledgebase")!;
  screen
    .shadowRoot!.querySelector(".drop")!
    .dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
}

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

describe("knowledge: passage size, passages, relevance", () => {
  it("words a relevance from 0 to 1", () => {
    expect(relevanceWords(1)).toBe("Strong match");
    expect(relevanceWords(0.75)).toBe("Strong match");
    expect(relevanceWords(0.5)).toBe("Partial match");
    expect(relevanceWords(0.1)).toBe("Weak match");
  });

  it("sets the passage size, shows a document's passages page by page and search results with their relevance", async () => {
    await signIn(await createAccount(), "#/knowledge");
    const { createKnowledgebase } = await graphql<{ createKnowledgebase: { id: number } }>(
      'mutation { createKnowledgebase(input: { name: "Back room" }) { id } }',
    );
    location.hash = `#/knowledge/${createKnowledgebase.id}`;
    await expect.element(page.getByRole("heading", { level: 1, name: /Back room/ })).toBeVisible();

    // The server's defaults, then its messages under each field.
    const size = page.getByRole("form", { name: "Passage size" });
    const length = size.getByLabelText(/Passage length/);
    const overlap = size.getByLabelText(/Overlap/);
    await expect.element(length).toHaveValue(300);
    await expect.element(overlap).toHaveValue(50);
    await length.fill("40");
    await size.getByRole("button", { name: "Save passage size" }).click();
    await expect
      .element(length)
      .toHaveAccessibleDescription("The chunk max tokens field must be between 50 and 2000.");
    await length.fill("60");
    await overlap.fill("30");
    await size.getByRole("button", { name: "Save passage size" }).click();
    await expect
      .element(overlap)
      .toHaveAccessibleDescription(
        "The chunk overlap tokens field must be less than half of chunk max tokens (60).",
      );
    await overlap.fill("10");
    await size.getByRole("button", { name: "Save passage size" }).click();
    await expect
      .element(size.getByRole("status"))
      .toHaveTextContent("Passage size saved: it applies to documents added from now on.");

    dropFile(new File([SHELVES], "shelves.txt", { type: "text/plain" }));
    const doc = page.getByRole("listitem").filter({ hasText: "shelves.txt" });
    await expect.element(doc.getByText("Ready", { exact: true })).toBeVisible();
    const { knowledgebase } = await graphql<{
      knowledgebase: { documents: { id: number; chunkCount: number }[] };
    }>(`{ knowledgebase(id: ${createKnowledgebase.id}) { documents { id chunkCount } } }`);
    const total = knowledgebase.documents[0]!.chunkCount;
    // Sixty tokens hold two sentences: more than a page of twenty passages.
    expect(total).toBeGreaterThan(20);
    await expect.element(doc.getByText(`${total} passages`, { exact: true })).toBeVisible();

    const show = page.getByRole("button", { name: "Show passages of shelves.txt" });
    await show.click();
    const passages = page.getByRole("region", { name: "Passages of shelves.txt" });
    await expect.element(passages).toHaveTextContent(`Showing 20 of ${total} passages`);
    await expect.element(passages.getByText(/^Passage 1 · \d+ tokens$/)).toBeVisible();
    await expect.element(passages.getByText(/Rule 1: the shop in Lisbon/).first()).toBeVisible();
    await passages.getByRole("button", { name: "Show more passages" }).click();
    await expect.element(passages).toHaveTextContent(`Showing ${total} of ${total} passages`);
    await expect.element(passages.getByText(/Rule 60:/).first()).toBeVisible();
    await expect
      .element(passages.getByRole("button", { name: "Show more passages" }))
      .not.toBeInTheDocument();
    await expect
      .element(page.getByRole("button", { name: "Hide passages of shelves.txt" }))
      .toHaveAttribute("aria-expanded", "true");
    await commands.saveScreenshot("knowledge-passages");
    expect(await violationsInBothThemes()).toEqual([]);
    await page.getByRole("button", { name: "Hide passages of shelves.txt" }).click();
    await expect.element(passages).not.toBeInTheDocument();

    await page.getByLabelText("Question").fill("Which shelf holds teapot number 12?");
    await page.getByRole("button", { name: "Search" }).click();
    const results = page.getByRole("list", { name: "Search results" });
    await expect.element(results).toBeVisible();
    const first = results.getByRole("listitem").first();
    await expect.element(first).toHaveTextContent(/(Strong|Partial|Weak) match\s*\d{1,3}% · shelves\.txt/);
    await expect.element(results).not.toHaveTextContent(/score/);
    const meter = first.getByRole("meter");
    await expect.element(meter).toHaveAccessibleName(/^Relevance \d{1,3}%: (Strong|Partial|Weak) match$/);
    await commands.saveScreenshot("knowledge-search");
    expect(await violationsInBothThemes()).toEqual([]);

    // Deleting the document asks first, naming it.
    const asked = answerConfirms(false, true);
    await page.getByRole("button", { name: "Delete shelves.txt" }).click();
    expect(asked).toEqual(["Delete shelves.txt? Assistants stop finding its passages at once."]);
    await expect.element(page.getByRole("button", { name: "Delete shelves.txt" })).toBeVisible();
    await page.getByRole("button", { name: "Delete shelves.txt" }).click();
    await expect.element(page.getByText("No documents yet.")).toBeVisible();
  });
});

describe("campaigns: live leads and CSV import with a country", () => {
  it("reads national numbers as the chosen country's, E.164 as written", () => {
    expect(toE164("020 7946 0958", "GB")).toBe("+442079460958");
    expect(toE164("(415) 555-0123", "US")).toBe("+14155550123");
    expect(toE164("+33 6 12 34 56 78", "GB")).toBe("+33612345678");
    expect(toE164("020 7946 0958", null)).toBeNull();
    expect(toE164("not a number", "GB")).toBeNull();
  });

  it("imports national numbers with a default country, shows variables as columns and follows leads live", async () => {
    await signIn(await createAccount(), "#/campaigns");
    const { createCampaign } = await graphql<{ createCampaign: { id: number } }>(
      'mutation { createCampaign(input: { name: "London clinic" }) { id } }',
    );
    location.hash = `#/campaigns/${createCampaign.id}/leads`;
    await expect.element(page.getByText("No leads yet.")).toBeVisible();

    const csv = [
      "name,phone,appointment",
      'Ada,"020 7946 0958",Monday',
      "Bob,+14155550123,Tuesday",
      "Cy,not a number,Friday",
    ].join("\n");
    await page.getByLabelText("CSV file").upload(new File([csv], "clinic.csv", { type: "text/csv" }));
    await page.getByLabelText("Country of national numbers").selectOptions("GB");
    await page.getByRole("button", { name: "Import 3 row(s)" }).click();
    await expect.element(page.getByText("2 lead(s) imported, 1 row(s) refused.")).toBeVisible();
    await expect
      .element(page.getByRole("table", { name: "Refused rows" }))
      .toHaveTextContent(
        /4\s*not a number\s*Not a phone number in E\.164 format .*nor a national number of United Kingdom\./,
      );

    const leads = page.getByRole("table", { name: "Leads" });
    await expect.element(leads).toHaveTextContent("+442079460958");
    for (const column of ["name", "appointment"])
      await expect.element(leads.getByText(column, { exact: true })).toBeVisible();
    const ada = leads.getByRole("row").filter({ hasText: "+442079460958" });
    await expect.element(ada.getByRole("cell", { name: "Ada", exact: true })).toBeVisible();
    await expect.element(ada.getByRole("cell", { name: "Monday", exact: true })).toBeVisible();
    await expect.element(ada.getByRole("cell", { name: "Waiting", exact: true })).toBeVisible();
    await commands.saveScreenshot("campaign-leads");
    expect(await violationsInBothThemes()).toEqual([]);

    // Another client adds and removes leads: the table follows without a reload, in the summary's words.
    const { createLead } = await graphql<{ createLead: { id: number } }>(
      `mutation { createLead(input: { campaignId: ${createCampaign.id}, phoneNumber: "+14155550177", variables: { name: "Dee", floor: "3" } }) { id } }`,
    );
    const dee = leads.getByRole("row").filter({ hasText: "+14155550177" });
    await expect.element(dee.getByRole("cell", { name: "Dee", exact: true })).toBeVisible();
    await expect.element(leads.getByText("floor", { exact: true })).toBeVisible();
    await expect.element(dee.getByRole("cell", { name: "Waiting", exact: true })).toBeVisible();
    await expect.element(page.getByRole("region", { name: "Progress" })).toHaveTextContent("3 leads:");
    await graphql(`mutation { deleteLead(id: ${createLead.id}) { deletedId } }`);
    await expect.element(leads).not.toHaveTextContent("+14155550177");
    await expect.element(leads.getByText("floor", { exact: true })).not.toBeInTheDocument();
  });
});

describe("phone numbers: subscription statuses as words", () => {
  it("shows a number's subscription in words, and a release asked for as such", async () => {
    await signIn(await createAccount(), "#/assistants");
    const line = `+1415556${String(Date.now() % 10_000).padStart(4, "0")}`;
    await graphql(`mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}" }) { id } }`);
    await graphql(
      `mutation { addPhoneNumber(input: { kind: sip, phoneNumber: "+14155550142", sipUri: "sip:desk@example.com" }) { id } }`,
    );
    location.hash = "#/numbers";
    const table = page.getByRole("table");
    const dedicated = table.getByRole("row").filter({ hasText: line });
    await expect.element(dedicated.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
    const sip = table.getByRole("row").filter({ hasText: "+14155550142" });
    await expect.element(sip.getByRole("cell", { name: "No subscription", exact: true })).toBeVisible();

    answerConfirms(true);
    await page.getByRole("button", { name: `Release ${line}` }).click();
    await expect
      .element(dedicated.getByRole("cell", { name: /^Being released$|^Cancelled, ends with its period$/ }))
      .toBeVisible();
    await expect.element(table).not.toHaveTextContent(/\b(active|cancelled|none|releasing)\b/);
  });
});
