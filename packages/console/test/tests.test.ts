import { afterEach, describe, expect, it } from "vitest";
import { commands, page } from "vitest/browser";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

/** Writes a scripted scenario through the editor: its lines and one "transcript contains" check. */
async function writeScenario(name: string, lines: string, phrase: string, criterion?: string) {
  await page.getByRole("link", { name: "New scenario" }).click();
  await expect.element(page.getByRole("heading", { name: "New scenario" })).toBeVisible();
  await page.getByLabelText("Name", { exact: true }).fill(name);
  await page.getByLabelText("Customer lines, one per line").fill(lines);
  // The kind offered first is "The transcript contains a phrase".
  await page.getByRole("button", { name: "Add check" }).click();
  await page.getByLabelText("Phrase").fill(phrase);
  if (criterion) await page.getByLabelText("Criteria for the judge, one per line").fill(criterion);
  await page.getByRole("button", { name: "Create scenario" }).click();
  await expect.element(page.getByRole("link", { name, exact: true })).toBeVisible();
}

/** Runs the suite from its card and follows the run until it finished. */
async function runSuite(expected: RegExp): Promise<number> {
  await page.getByRole("button", { name: "Run suite" }).click();
  await expect.element(page.getByRole("heading", { name: /^Run \d+/ })).toBeVisible();
  const progress = page.getByTestId("run-progress");
  await expect.element(progress, { timeout: 30_000 }).toHaveTextContent(expected);
  const heading = page.getByRole("heading", { name: /^Run \d+/ }).element().textContent ?? "";
  return Number(/Run (\d+)/.exec(heading)![1]);
}

describe("the Tests screen", () => {
  it("writes scripted scenarios and a suite, runs it live, shows a failed check's reason and the judge's, and compares two runs", {
    timeout: 150_000,
  }, async () => {
    await signIn(await createAccount());
    await graphql('mutation { createAssistant(input: { name: "Shoe shop", type: web }) { id } }');
    await page.getByRole("link", { name: "Tests", exact: true }).click();
    await page.getByRole("link", { name: "Shoe shop" }).click();
    await expect.element(page.getByRole("heading", { name: "Tests: Shoe shop" })).toBeVisible();
    await expect.element(page.getByText("No scenarios yet.")).toBeVisible();

    // The stand-in model echoes the customer ("Echo: Hello"); the test judge passes a criterion whose
    // quoted words were said.
    await writeScenario(
      "Greets back",
      "Hello\nThanks, bye",
      "Echo: Hello",
      'The assistant says "Echo: Thanks"',
    );
    await writeScenario("Says good morning", "Hello", "Good morning");

    // A suite of both, with its estimate before any run: 3 replies, a judge request on top.
    await page.getByLabelText("Suite name").fill("Before release");
    await page.getByRole("checkbox", { name: "Greets back" }).click();
    await page.getByRole("checkbox", { name: "Says good morning" }).click();
    await page.getByRole("button", { name: "Create suite" }).click();
    await expect.element(page.getByRole("heading", { name: "Before release" })).toBeVisible();
    await expect
      .element(page.getByText(/Estimate: 2 scenarios/))
      .toHaveTextContent(/at most 3 replies and 4 model requests, about [\d.]+ at the reply price/);
    await expect.element(page.getByText("Not run yet.")).toBeVisible();

    // Run: the page follows it by subscription until both scenarios finished.
    const first = await runSuite(/2 of 2 finished · 1 passed · 1 failed · 0 errors · run failed/);
    await expect.element(page.getByRole("progressbar", { name: "Scenarios finished" })).toBeVisible();

    // The failed scenario says which check failed and why.
    await page.getByText("Says good morning").click();
    await expect.element(page.getByText(`assistant's lines contain "Good morning"`)).toBeVisible();
    await expect.element(page.getByText("not found", { exact: true })).toBeVisible();
    await expect.element(page.getByText("Failed:", { exact: true })).toBeVisible();
    // The passing one: its transcript with latencies, its check and the judge's reasoning.
    await page.getByText("Greets back").click();
    await expect.element(page.getByText("found in: Echo: Hello")).toBeVisible();
    await expect.element(page.getByText('"Echo: Thanks" was said.')).toBeVisible();
    await expect.element(page.getByText("Assistant: Echo: Thanks, bye")).toBeVisible();
    await expect.element(page.getByText("Ended by").first()).toBeVisible();
    await expect.element(page.getByText(/\d+ ms, \d+ ms/)).toBeVisible();
    await commands.saveScreenshot("tests-run");

    // A fix: the failing scenario's check is edited, and the suite runs again.
    await page.getByRole("link", { name: "← Tests" }).click();
    await page.getByRole("link", { name: "Says good morning" }).click();
    await expect.element(page.getByLabelText("Phrase")).toHaveValue("Good morning");
    await page.getByLabelText("Phrase").fill("Echo");
    await page.getByRole("button", { name: "Save scenario" }).click();
    await expect.element(page.getByText("Saved.")).toBeVisible();
    await page.getByRole("link", { name: "← Tests" }).click();
    const second = await runSuite(/2 of 2 finished · 2 passed · 0 failed · 0 errors · run passed/);

    // Compared: the one scenario whose verdict changed, side by side.
    await page.getByRole("link", { name: "← Tests" }).click();
    await expect.element(page.getByRole("link", { name: `Run ${second}` })).toBeVisible();
    await expect
      .element(page.getByLabelText("Before", { exact: true }))
      .toHaveDisplayValue(`Run ${first} (failed)`);
    await expect
      .element(page.getByLabelText("After", { exact: true }))
      .toHaveDisplayValue(`Run ${second} (passed)`);
    await page.getByRole("button", { name: "Compare" }).click();
    await expect
      .element(page.getByRole("heading", { name: `Compare run ${first} with run ${second}` }))
      .toBeVisible();
    await expect.element(page.getByText("1 scenario changed its verdict; 1 unchanged.")).toBeVisible();
    const row = page.getByRole("table", { name: "Changed verdicts" }).getByRole("row").nth(1);
    await expect.element(row).toHaveTextContent(/Says good morning\s*Failed\s*Passed/);
    const before = page.getByRole("group", { name: `Before, run ${first}` });
    await expect.element(before.getByText("not found", { exact: true })).toBeVisible();
    const after = page.getByRole("group", { name: `After, run ${second}` });
    await expect.element(after.getByText("found in: Echo: Hello")).toBeVisible();
    await commands.saveScreenshot("tests-compare");

    // At phone width the comparison and the run fit without sideways scrolling.
    try {
      await page.viewport(390, 844);
      const root = document.documentElement;
      await expect.element(after).toBeVisible();
      expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
      location.hash = `#/tests/${location.hash.split("/")[2]}/run/${first}`;
      await expect.element(page.getByTestId("run-progress")).toHaveTextContent("2 of 2 finished");
      expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
      location.hash = `#/tests/${location.hash.split("/")[2]}`;
      await expect.element(page.getByRole("button", { name: "Run suite" })).toBeVisible();
      expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
    } finally {
      await page.viewport(1280, 860);
    }
  });

  it("makes a test from an inbox conversation: its customer's lines become the script", async () => {
    await signIn(await createAccount());
    const { createAssistant } = await graphql<{ createAssistant: { id: number; uuid: string } }>(
      'mutation { createAssistant(input: { name: "Desk", type: web }) { id uuid } }',
    );
    const { startWidgetConversation } = await graphql<{
      startWidgetConversation: { conversationId: string };
    }>(
      `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
    );
    const id = startWidgetConversation.conversationId;
    await graphql(
      `mutation { sendWidgetMessage(input: { conversationId: "${id}", message: "Do you sell boots?" }) { reply } }`,
    );

    location.hash = `#/inbox/${id}`;
    await expect
      .element(page.getByRole("log", { name: "Messages" }))
      .toHaveTextContent("Echo: Do you sell boots?");
    await page.getByRole("button", { name: "Make a test from this conversation" }).click();

    await expect.element(page.getByText(/Made from a conversation/)).toBeVisible();
    await expect
      .element(page.getByLabelText("Customer lines, one per line"))
      .toHaveValue("Do you sell boots?");
    await page.getByText("Recorded answers (1)").click();
    await expect
      .element(page.getByRole("listitem").filter({ hasText: "Echo: Do you sell boots?" }))
      .toBeVisible();
    await page.getByRole("link", { name: "← Tests" }).click();
    await expect.element(page.getByRole("heading", { name: "Tests: Desk" })).toBeVisible();
    await expect
      .element(page.getByRole("link", { name: "Conversation", exact: true }))
      .toHaveAttribute("href", `#/inbox/${id}`);
  });

  it("shows the server's message under the field, and asks before a large run", async () => {
    await signIn(await createAccount());
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Busy desk", type: web }) { id } }',
    );
    location.hash = `#/tests/${createAssistant.id}/scenario/new`;
    await page.getByLabelText("Name", { exact: true }).fill("No lines");
    await page.getByRole("button", { name: "Create scenario" }).click();
    await expect
      .element(page.getByLabelText("Customer lines, one per line"))
      .toHaveAccessibleDescription(/at least one line/);

    // Two persona customers at the 30-turn limit: 120 model requests at most, past the bound that asks.
    const ids: number[] = [];
    for (const name of ["Chatty one", "Chatty two"]) {
      const { createTestScenario } = await graphql<{ createTestScenario: { id: number } }>(
        `mutation { createTestScenario(input: { assistantId: ${createAssistant.id}, name: "${name}",
          persona: "A customer who never stops talking", goal: "Talk", turnLimit: 30 }) { id } }`,
      );
      ids.push(createTestScenario.id);
    }
    await graphql(
      `mutation { createTestSuite(input: { name: "Long", scenarioIds: [${ids.join(", ")}] }) { id } }`,
    );
    location.hash = `#/tests/${createAssistant.id}`;
    await page.getByRole("button", { name: "Run suite" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect.element(dialog).toHaveTextContent(/A large run: up to 120 model requests/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(page.getByText("Not run yet.")).toBeVisible();
    await page.getByRole("button", { name: "Run suite" }).click();
    await page.getByRole("button", { name: "Start run" }).click();
    await expect.element(page.getByRole("heading", { name: /^Run \d+/ })).toBeVisible();
    await expect.element(page.getByRole("progressbar", { name: "Scenarios finished" })).toBeVisible();
  });

  it("writes a phone scenario and runs it: the channel is kept, and the result links its test call", {
    timeout: 120_000,
  }, async () => {
    await signIn(await createAccount());
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Phone tests", type: inbound }) { id } }',
    );
    location.hash = `#/tests/${createAssistant.id}/scenario/new`;
    await page.getByLabelText("Name", { exact: true }).fill("Calls about an order");
    await page.getByLabelText("Channel").selectOptions("phone");
    await page.getByLabelText("Customer lines, one per line").fill("Where is my order?");
    await page.getByRole("button", { name: "Create scenario" }).click();
    await expect.element(page.getByRole("link", { name: "Calls about an order", exact: true })).toBeVisible();
    const { testScenarios } = await graphql<{ testScenarios: { id: number; channel: string }[] }>(
      `{ testScenarios(assistantId: ${createAssistant.id}) { id channel } }`,
    );
    expect(testScenarios.map((scenario) => scenario.channel)).toEqual(["phone"]);
    location.hash = `#/tests/${createAssistant.id}/scenario/${testScenarios[0]!.id}`;
    await expect.element(page.getByLabelText("Channel")).toHaveValue("phone");

    // Run through the voice engine on the simulated carrier: the result names its test call.
    const { createTestSuite } = await graphql<{ createTestSuite: { id: number } }>(
      `mutation { createTestSuite(input: { name: "Phone", scenarioIds: [${testScenarios[0]!.id}] }) { id } }`,
    );
    const { runTestSuite } = await graphql<{ runTestSuite: { id: number } }>(
      `mutation { runTestSuite(suiteId: ${createTestSuite.id}) { id } }`,
    );
    location.hash = `#/tests/${createAssistant.id}/run/${runTestSuite.id}`;
    await expect
      .element(page.getByTestId("run-progress"), { timeout: 90_000 })
      .toHaveTextContent(/1 of 1 finished/);
    await page.getByText("Calls about an order").click();
    const callLink = page.getByRole("link", { name: /^Call \d+$/ });
    await expect.element(callLink).toBeVisible();
    const callId = Number(/Call (\d+)/.exec(callLink.element().textContent ?? "")![1]);
    await callLink.click();
    await expect.element(page.getByRole("heading", { name: new RegExp(`Call ${callId}`) })).toBeVisible();
    await expect.element(page.getByText("Where is my order?").first()).toBeVisible();
  });

  it("makes a test from a call: the caller's lines become the script", { timeout: 90_000 }, async () => {
    await signIn(await createAccount());
    const line = `+1415557${String(Date.now() % 10_000).padStart(4, "0")}`;
    const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
      `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}" }) { id } }`,
    );
    await graphql(
      `mutation { createAssistant(input: { name: "Phone desk", type: inbound, phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
    );
    // The simulated carrier's caller talks with the assistant; the call keeps its transcript.
    const { simulateInboundCall: call } = await graphql<{ simulateInboundCall: { id: number } }>(
      `mutation { simulateInboundCall(input: { phoneNumberId: ${addPhoneNumber.id}, from: "+14155550188" }) { id } }`,
    );
    const transcript = async () =>
      (await graphql<{ call: { transcript: string } }>(`{ call(id: ${call.id}) { transcript } }`)).call
        .transcript;
    await expect.poll(transcript, { timeout: 60_000, interval: 500 }).toMatch(/\S/);
    location.hash = `#/calls/${call.id}`;
    await page.getByRole("button", { name: "Make a test from this call" }).click();
    await expect.element(page.getByText(`Made from call ${call.id}`)).toBeVisible();
    const script = page.getByLabelText("Customer lines, one per line");
    await expect.element(script).not.toHaveValue("");
  });
});
