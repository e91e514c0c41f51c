import { afterEach, describe, expect, it } from "vitest";
import { commands, page } from "vitest/browser";
import { expectAccessibleInBothThemes, seriousViolations } from "./support/axe.ts";
import { callScreen, pageFits, resetPage } from "./support/call-review.ts";
import { createAccount, graphql, signIn } from "./support/console.ts";

afterEach(resetPage);

/**
 * The next file the console hands to the browser's downloads (`saveFile`: a link with `download`
 * clicked), read from its object URL instead of saved to disk.
 */
function nextDownload(): Promise<{ name: string; text: string }> {
  return new Promise((resolve, reject) => {
    const listener = (event: MouseEvent) => {
      const link = event.composedPath()[0];
      if (!(link instanceof HTMLAnchorElement) || !link.download) return;
      document.removeEventListener("click", listener, true);
      event.preventDefault();
      fetch(link.href)
        .then((response) => response.text())
        .then((text) => resolve({ name: link.download, text }), reject);
    };
    document.addEventListener("click", listener, true);
  });
}

/** A number with an inbound assistant answering it, an outbound assistant on it and another assistant. */
async function arrange() {
  const line = `+1415558${String(Date.now() % 10_000).padStart(4, "0")}`;
  const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
    `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}", label: "Front line" }) { id } }`,
  );
  const { createAssistant: desk } = await graphql<{ createAssistant: { id: number } }>(
    `mutation { createAssistant(input: { name: "Front desk", type: inbound, phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
  );
  const { createAssistant: caller } = await graphql<{ createAssistant: { id: number } }>(
    `mutation { createAssistant(input: { name: "Follow-up", type: outbound, phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
  );
  return { numberId: addPhoneNumber.id, line, deskId: desk.id, callerId: caller.id };
}

describe("calls: review like a person", () => {
  for (const [label, width, height] of [
    ["desktop", 1440, 900],
    ["phone", 390, 844],
  ] as const) {
    it(`simulates an inbound call, reviews it as a chat with latency waterfalls, filters and exports (${label})`, {
      timeout: 180_000,
    }, async () => {
      await page.viewport(width, height);
      const account = await createAccount();
      await signIn(account, "#/calls");
      const { numberId, line, deskId, callerId } = await arrange();
      // The choices are read when the screen opens: open it again now that they exist.
      location.hash = "#/assistants";
      await expect.element(page.getByRole("heading", { level: 1, name: "Assistants" })).toBeVisible();
      location.hash = "#/calls";
      await expect.element(page.getByRole("heading", { level: 1, name: "Calls" })).toBeVisible();

      await page.getByRole("button", { name: "Simulate an inbound call" }).click();
      const simulate = page.getByRole("form", { name: "Simulate an inbound call" });
      await expect
        .element(simulate.getByRole("option", { name: `${line} (Front line)` }))
        .toBeInTheDocument();
      await simulate.getByLabelText("Number that rings").selectOptions(String(numberId));
      await simulate.getByLabelText("Caller's number").fill("+14155550123");
      expect(await seriousViolations()).toEqual([]);
      await simulate.getByRole("button", { name: "Ring the number" }).click();

      // The call's page, live: the transcript fills in as a chat while the scripted caller talks.
      await expect.element(page.getByRole("heading", { level: 1, name: /^Call \d+/ })).toBeVisible();
      const callId = Number(/#\/calls\/(\d+)/.exec(location.hash)?.[1]);
      expect(callId).toBeGreaterThan(0);
      const transcript = page.getByRole("list", { name: "Transcript", exact: true });
      // The simulated caller (the test server's model as its persona) speaks first; the assistant answers.
      await expect
        .element(transcript.getByText("Caller", { exact: true }).first(), { timeout: 90_000 })
        .toBeVisible();
      const turns = [...callScreen().querySelectorAll<HTMLElement>(".turn")];
      expect(turns.some((turn) => turn.classList.contains("customer"))).toBe(true);
      // Each answer to the caller has its waterfall, from the caller's end of speech to what was heard.
      const waterfalls = transcript.getByTestId("waterfall");
      await expect.poll(() => waterfalls.elements().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
      const first = waterfalls.first();
      await expect
        .element(first.getByRole("list", { name: "Latency from the caller's end of speech" }))
        .toBeVisible();
      for (const stage of ["End of speech", "Transcript", "First token", "First audio", "Heard"]) {
        await expect.element(first.getByText(stage, { exact: true })).toBeInTheDocument();
      }
      await expect.element(first.getByText(/^Answered in \d+ ms$/)).toBeVisible();
      await expect.element(page.getByText(/^median \d+ ms, p95 \d+ ms over \d+ answers?$/)).toBeVisible();
      // No recording for a simulated call (text only): said so, not an empty player.
      await expect.element(page.getByText("No recording.")).toBeVisible();
      // The evaluation and the webhook answer read as words, never as "{}".
      await expect.element(page.getByText("No response recorded from your webhook endpoint.")).toBeVisible();
      expect(callScreen().textContent).not.toContain("{}");
      expect(pageFits()).toBe(true);
      transcript.element().scrollIntoView();
      await commands.saveScreenshot(label === "desktop" ? "call-review" : "call-review-phone");
      await expectAccessibleInBothThemes();

      // The list, filtered by assistant: the call is the desk's, not the follow-up assistant's.
      location.hash = "#/calls";
      const filters = page.getByRole("form", { name: "Filter calls" });
      await expect.element(filters.getByRole("option", { name: "Follow-up" })).toBeInTheDocument();
      await filters.getByLabelText("Assistant").selectOptions(String(callerId));
      await filters.getByRole("button", { name: "Filter" }).click();
      await expect.element(page.getByText("No calls match these filters.")).toBeVisible();
      await filters.getByLabelText("Assistant").selectOptions(String(deskId));
      await filters.getByLabelText("Type").selectOptions("inbound");
      await filters.getByRole("button", { name: "Filter" }).click();
      await expect.element(page.getByText("1 call · page 1 of 1")).toBeVisible();
      expect(pageFits()).toBe(true);

      // CSV of what is filtered, through the server's export with the session.
      const download = nextDownload();
      await filters.getByRole("button", { name: "Export CSV" }).click();
      const { name, text } = await download;
      expect(name).toMatch(/^calls-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...rows] = text.trimEnd().split("\r\n");
      expect(header).toBe(
        "id,created_at,type,status,assistant_id,assistant_name,campaign_id,campaign_name,from_number,customer_number,started_at,ended_at,duration_seconds,total_cost,end_reason,answered_by",
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatch(
        new RegExp(`^${callId},[^,]+,inbound,[a-z_-]+,${deskId},Front desk,,,\\${line},\\+14155550123,`),
      );

      // A number that is not E.164 is named under its field, not as a broken list.
      await filters.getByLabelText("Customer's number").fill("555 0123");
      await filters.getByRole("button", { name: "Filter" }).click();
      await expect.element(filters.getByRole("alert")).toBeVisible();

      // A test phone call from the outbound assistant opens its own page.
      await page.getByRole("button", { name: "Place a test call" }).click();
      const test = page.getByRole("form", { name: "Place a test call" });
      await test.getByLabelText("Assistant").selectOptions(String(callerId));
      await test.getByLabelText("Number to call").fill("+14155550123");
      expect(await seriousViolations()).toEqual([]);
      await test.getByRole("button", { name: "Call" }).click();
      await expect.element(page.getByRole("heading", { level: 1, name: /^Call \d+/ })).toBeVisible();
      await expect.poll(() => Number(/#\/calls\/(\d+)/.exec(location.hash)?.[1])).toBeGreaterThan(callId);
    });
  }
});
