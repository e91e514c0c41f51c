import { afterEach, describe, expect, inject, it, onTestFinished } from "vitest";
import { commands, page, userEvent } from "vitest/browser";
import "../../widget/src/voxgate-chat.ts";
import { SPOKEN_ON_CALL } from "../../widget/test/support/call-script.ts";
import { createAccount, graphql, mountConsole, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

describe("the operator console", () => {
  it("signs in, keeps the session over a reload, refuses a wrong password and signs out", async () => {
    const account = await createAccount();
    mountConsole();
    await page.getByLabelText("Email").fill(account.email);
    await page.getByLabelText("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.element(page.getByRole("alert")).toHaveTextContent("The email or password is not correct.");
    await commands.saveScreenshot("sign-in");

    await page.getByLabelText("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.element(page.getByRole("heading", { name: "Assistants" })).toBeVisible();

    // A reload is a new element reading the stored session.
    document.querySelector("voxgate-console")!.remove();
    mountConsole();
    await expect.element(page.getByText(account.email)).toBeVisible();
    // Non-operators get no admin link.
    await expect.element(page.getByRole("link", { name: "Admin" })).not.toBeInTheDocument();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.element(page.getByText("You are signed out.")).toBeVisible();
    expect(localStorage.length).toBe(0);
  });

  it("returns to sign-in when the stored session has been revoked", async () => {
    const account = await createAccount();
    await signIn(account);
    const token = JSON.parse(localStorage.getItem("voxgate-console:session")!).token as string;
    // Another tab signs out: the token is revoked on the server.
    await fetch(`${document.querySelector("voxgate-console")!.apiBase}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "mutation { logout { revoked } }" }),
    });
    // A hash change, not a click on the link: the console's own start-up requests may meet the revoked token
    // first and return to sign-in before the link can be clicked; either way the next screen's request is refused.
    location.hash = "#/api-keys";
    await expect.element(page.getByText("Your session has expired. Please sign in again.")).toBeVisible();
    await expect.element(page.getByLabelText("Password")).toBeVisible();
    expect(localStorage.getItem("voxgate-console:session")).toBeNull();
  });

  it("creates an assistant, showing a field's message first, then previews its widget and chats with it", async () => {
    await signIn(await createAccount(), "#/assistants/new");
    await expect.element(page.getByRole("heading", { name: "New assistant" })).toBeVisible();
    await page.getByRole("button", { name: "Create assistant" }).click();
    await expect
      .element(page.getByLabelText("Name", { exact: true }))
      .toHaveAccessibleDescription(/name field is required/i);

    await page.getByLabelText("Name", { exact: true }).fill("Ada from the shop");
    await page.getByLabelText("System prompt").fill("You help customers of a shoe shop.");
    await page.getByRole("button", { name: "Create assistant" }).click();
    await expect.element(page.getByRole("heading", { name: "Ada from the shop" })).toBeVisible();
    // The real widget from the server's embed bundle, with the assistant's appearance.
    await expect.element(page.getByRole("button", { name: "Open chat" })).toBeVisible();

    await page.getByLabelText("Test message").fill("Do you sell boots?");
    await userEvent.keyboard("{Enter}");
    await expect
      .element(page.getByRole("log", { name: "Test conversation" }))
      .toHaveTextContent("Echo: Do you sell boots?");
    await commands.saveScreenshot("assistant");
  });

  it("makes a test call from the assistant editor: the fake microphone reaches the server, the transcript shows live", {
    timeout: 120_000,
  }, async () => {
    await signIn(await createAccount());
    // No greeting: the caller speaks first, as in the widget's own web-call test.
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Voice desk", type: web, initialMessage: "" }) { id } }',
    );
    location.hash = `#/assistants/${createAssistant.id}`;
    await expect.element(page.getByText(/and save to make a test call/)).toBeVisible();
    await page.getByLabelText("Calls from the widget (voice)").click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.element(page.getByText("Saved.")).toBeVisible();

    await page.getByRole("button", { name: "Test call", exact: true }).click();
    const state = page.getByTestId("test-call-state");
    await expect.element(state, { timeout: 30_000 }).toHaveTextContent(/Call \d+: live, speak now/);
    const callId = Number(/Call (\d+)/.exec(state.element().textContent ?? "")![1]);
    // The microphone's words reach the server as the caller's turn, which is answered. On a loaded
    // machine a stall in the fake microphone's real-time playback can end the turn early ("hello"),
    // and a tone cut mid-way garbles the word it ends in ("hello theqfa", or "helllz0mfmjb" when that
    // is the first word): the words heard before the turn's last one must be the microphone's,
    // whichever part of them made the turn, and the last one must begin as a word of it does.
    const turns = async () =>
      (
        await graphql<{ call: { turns: { speaker: string; text: string }[] } }>(
          `{ call(id: ${callId}) { turns { speaker text } } }`,
        )
      ).call.turns;
    await expect
      .poll(async () => (await turns()).map((turn) => turn.speaker), { timeout: 30_000, interval: 250 })
      .toEqual(expect.arrayContaining(["customer", "assistant"]));
    const all = await turns();
    const heard = all.find((turn) => turn.speaker === "customer")!.text;
    const answer = all.find((turn) => turn.speaker === "assistant")!.text;
    expect(heard).not.toBe("");
    const words = heard.split(" ");
    const spoken = SPOKEN_ON_CALL.split(" ");
    expect(SPOKEN_ON_CALL).toContain(words.slice(0, -1).join(" "));
    if (words.length > 1) expect(spoken).toContain(words[0]);
    expect(spoken.map((word) => word[0])).toContain(words.at(-1)![0]);
    expect(answer).toBe(`Echo: ${heard}`);
    // The preview widget shows the call's transcript live.
    const widget = document
      .querySelector("voxgate-console")!
      .shadowRoot!.querySelector("vx-assistant-editor")!
      .shadowRoot!.querySelector("voxgate-chat")!;
    await expect.poll(() => widget.shadowRoot!.textContent).toContain(answer);
    // show() focused the widget's message box, which scrolled the page: the picture starts at the top.
    window.scrollTo(0, 0);
    await commands.saveScreenshot("test-call");
    await page.getByRole("button", { name: "End call" }).click();
    await expect.element(state).toHaveTextContent(/Call \d+: Ended by the caller/);
  });

  it("uploads a document by drag and drop and shows it becoming active, then searches it", async () => {
    await signIn(await createAccount(), "#/knowledge");
    await page.getByLabelText("Name").fill("Shop FAQ");
    await page.getByRole("button", { name: "Create knowledge base" }).click();
    await expect.element(page.getByRole("heading", { name: /Shop FAQ/ })).toBeVisible();

    const file = new File(
      ["Returns are accepted within 30 days of delivery with the receipt."],
      "returns.txt",
      {
        type: "text/plain",
      },
    );
    const data = new DataTransfer();
    data.items.add(file);
    const screen = document.querySelector("voxgate-console")!.shadowRoot!.querySelector("vx-knowledgebase")!;
    screen
      .shadowRoot!.querySelector(".drop")!
      .dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));

    await expect.element(page.getByText("returns.txt")).toBeVisible();
    await expect.element(page.getByText("Ready", { exact: true })).toBeVisible();
    await expect.element(page.getByText("1 passage", { exact: true })).toBeVisible();

    // Too big for the server: refused before any byte is sent.
    const big = new DataTransfer();
    big.items.add(new File([new Uint8Array(20 * 1024 * 1024 + 1)], "huge.pdf", { type: "application/pdf" }));
    screen
      .shadowRoot!.querySelector(".drop")!
      .dispatchEvent(new DragEvent("drop", { dataTransfer: big, bubbles: true, cancelable: true }));
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("huge.pdf is 20.0 MB: files may be at most 20 MB.");

    await page.getByLabelText("Question").fill("returns within 30 days");
    await page.getByRole("button", { name: "Search" }).click();
    await expect
      .element(page.getByText("Returns are accepted within 30 days of delivery with the receipt."))
      .toBeVisible();
    await commands.saveScreenshot("knowledge");

    // Deleting asks first: declined, the document stays; confirmed, it goes.
    const confirm = window.confirm;
    onTestFinished(() => {
      window.confirm = confirm;
    });
    const asked: string[] = [];
    window.confirm = (message) => {
      asked.push(String(message));
      return asked.length > 1;
    };
    await page.getByRole("button", { name: "Delete returns.txt" }).click();
    expect(asked).toEqual(["Delete returns.txt? Assistants stop finding its passages at once."]);
    await expect.element(page.getByRole("button", { name: "Delete returns.txt" })).toBeVisible();
    await page.getByRole("button", { name: "Delete returns.txt" }).click();
    await expect.element(page.getByText("No documents yet.")).toBeVisible();
  });

  it("retries a failed document in place: the server processes it again from its kept source", async () => {
    await signIn(await createAccount(), "#/knowledge");
    await page.getByLabelText("Name").fill("Hours");
    await page.getByRole("button", { name: "Create knowledge base" }).click();
    await expect.element(page.getByRole("heading", { name: /Hours/ })).toBeVisible();
    const site = `${inject("controlUrl")}/site`;
    await page.getByLabelText("Website URL").fill(site);
    // The server follows 1 to 50 linked pages: 0 gets its message under the field, nothing is added.
    const limit = page.getByLabelText(/Linked pages to follow/);
    await expect.element(limit).toHaveValue(10);
    await limit.fill("0");
    await page.getByRole("button", { name: "Add website" }).click();
    await expect.element(limit).toHaveAccessibleDescription(/between 1 and 50/);
    await expect.element(page.getByText("No documents yet.")).toBeVisible();
    await limit.fill("2");
    await page.getByRole("button", { name: "Add website" }).click();
    await expect.element(page.getByText(`The site answered HTTP 404 for ${site}.`)).toBeVisible();
    await fetch(`${inject("controlUrl")}/publish`, { method: "POST" });
    await page.getByRole("button", { name: "Retry" }).click();
    await expect.element(page.getByText("Ready", { exact: true })).toBeVisible();
    // The same document, not a new one added beside it.
    expect(
      document
        .querySelector("voxgate-console")!
        .shadowRoot!.querySelector("vx-knowledgebase")!
        .shadowRoot!.querySelectorAll("li.doc"),
    ).toHaveLength(1);
  });

  it("imports leads from CSV, reporting the refused rows", async () => {
    await signIn(await createAccount(), "#/campaigns/new");
    await page.getByLabelText("Name", { exact: true }).fill("Spring follow-up");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect.element(page.getByRole("heading", { name: "Spring follow-up" })).toBeVisible();
    await page.getByRole("tab", { name: "Leads" }).click();

    const csv = [
      "name,phone,city",
      "Ada,+14155550123,Paris",
      "Bob,not a number,Lyon",
      "Cy,+14155550123,Nice",
      'Dee,"+44 20 7946 0958",London',
      "Eve,+10005550123,Rome",
    ].join("\n");
    await page.getByLabelText("CSV file").upload(new File([csv], "leads.csv", { type: "text/csv" }));
    await expect.element(page.getByLabelText("Phone number column")).toHaveValue("1");
    await page.getByRole("button", { name: "Import 5 row(s)" }).click();

    await expect.element(page.getByText("2 lead(s) imported, 3 row(s) refused.")).toBeVisible();
    const refused = page.getByRole("table", { name: "Refused rows" });
    await expect.element(refused).toHaveTextContent(/3\s*not a number\s*Not a phone number in E\.164/);
    await expect.element(refused).toHaveTextContent("The same number appears earlier in the file.");
    await expect
      .element(refused)
      .toHaveTextContent(/6\s*\+10005550123\s*The phone number field must be a valid phone number/);
    const leads = page.getByRole("table", { name: "Leads" });
    await expect.element(leads).toHaveTextContent("+442079460958");
    // Each variable is a column of its own.
    await expect.element(leads.getByText("city", { exact: true })).toBeVisible();
    await expect.element(leads.getByRole("cell", { name: "Paris", exact: true })).toBeVisible();
    await commands.saveScreenshot("campaign-import");
  });

  // The longest flow of the file (two components, a model round trip, live pushes both ways): on a
  // loaded CI machine it needs more than the file's bound.
  it("reads a widget conversation live in the inbox, takes it over and answers the visitor", {
    timeout: 90_000,
  }, async () => {
    await signIn(await createAccount(), "#/inbox");
    await expect.element(page.getByText("No open widget or SMS conversations.")).toBeVisible();
    const assistant = await graphql<{ createAssistant: { uuid: string } }>(
      'mutation { createAssistant(input: { name: "Shop helper", type: web }) { uuid } }',
    );

    // A visitor on the shop's website, through the real widget.
    const widget = document.createElement("voxgate-chat");
    widget.setAttribute("assistant", assistant.createAssistant.uuid);
    widget.setAttribute("api-base", inject("apiBase"));
    document.body.append(widget);
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("textbox", { name: "Message" }).fill("Where is my order 1234?");
    await userEvent.keyboard("{Enter}");
    // In the visitor's widget (the inbox's preview may already show the same words).
    await expect
      .element(page.getByRole("log", { name: "Shop helper" }).getByText("Echo: Where is my order 1234?"))
      .toBeVisible();

    // It arrives in the open inbox without a reload, unread.
    const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link");
    await expect.element(entry).toHaveTextContent("Echo: Where is my order 1234?");
    await expect.element(page.getByLabelText("Unread")).toBeVisible();
    await entry.click();
    const messages = page.getByRole("log", { name: "Messages" });
    await expect.element(messages).toHaveTextContent("Where is my order 1234?");
    await expect.element(page.getByLabelText("Unread")).not.toBeInTheDocument();

    await page.getByRole("button", { name: "Take over" }).click();
    await expect.element(page.getByText("You are answering (AI off)")).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).fill("Is anyone there?");
    await userEvent.keyboard("{Enter}");
    await expect.element(messages).toHaveTextContent("Is anyone there?");

    // Enter sends, as in the widget (the visitor's open panel covers the console's button on this page).
    await page.getByLabelText("Reply as operator").fill("Hello, this is Sam: your order left this morning.");
    await userEvent.keyboard("{Enter}");
    await expect.element(messages).toHaveTextContent("Hello, this is Sam");
    // The visitor's open widget shows it without sending anything.
    await expect
      .element(page.getByText("Hello, this is Sam: your order left this morning.").first())
      .toBeVisible();
    await expect
      .poll(() => widget.shadowRoot!.textContent)
      .toContain("Hello, this is Sam: your order left this morning.");
    await commands.saveScreenshot("inbox");
    widget.remove();
  });

  it("counts conversations waiting for a person, marks them, and taking over answers them", async () => {
    await signIn(await createAccount(), "#/inbox");
    const { createAssistant } = await graphql<{ createAssistant: { id: number; uuid: string } }>(
      'mutation { createAssistant(input: { name: "Desk", type: web }) { id uuid } }',
    );
    await graphql(
      `mutation { setChatHandoffSettings(input: { assistantId: ${createAssistant.id}, requestHuman: true }) { requestHuman } }`,
    );
    const { startWidgetConversation } = await graphql<{
      startWidgetConversation: { conversationId: string };
    }>(
      `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
    );
    const { sendWidgetMessage } = await graphql<{ sendWidgetMessage: { reply: string } }>(
      `mutation { sendWidgetMessage(input: { conversationId: "${startWidgetConversation.conversationId}", message: "I need a person" }) { reply } }`,
    );
    expect(sendWidgetMessage.reply).toBe(
      "A person of our team has been asked to join and will answer here shortly.",
    );

    await expect.element(page.getByRole("status").getByText("1 waiting for a person")).toBeVisible();
    const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link");
    await expect.element(entry).toHaveTextContent("wants a person");
    await entry.click();
    await expect
      .element(page.getByText("The customer asked for a person: take over to answer."))
      .toBeVisible();
    await commands.saveScreenshot("inbox-waiting");
    await page.getByRole("button", { name: "Take over" }).click();
    await expect.element(page.getByText("You are answering (AI off)")).toBeVisible();
    await expect.element(page.getByText("1 waiting for a person")).not.toBeInTheDocument();
    await expect.element(entry).not.toHaveTextContent("wants a person");
  });

  it("shows an SMS conversation in the inbox with its badge and number, and answers it by text", async () => {
    await signIn(await createAccount(), "#/inbox");
    const line = `+1415555${String(Date.now() % 10_000).padStart(4, "0")}`;
    const customer = "+14155550123";
    const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
      `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}", smsCapable: true }) { id } }`,
    );
    await graphql(
      `mutation { createAssistant(input: { name: "Front desk", type: inbound, phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
    );
    await graphql(
      `mutation { simulateIncomingText(input: { to: "${line}", from: "${customer}", body: "Are you open on Saturday?" }) { reply } }`,
    );
    // It arrives live, marked as a text conversation with the customer's number.
    const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link");
    await expect.element(entry).toHaveTextContent(/SMS\s*\+14155550123/);
    await entry.click();
    await expect.element(page.getByText(`Text messages with ${customer}`)).toBeVisible();
    const messages = page.getByRole("log", { name: "Messages" });
    await expect.element(messages).toHaveTextContent("Echo: Are you open on Saturday?");

    await page.getByRole("button", { name: "Take over" }).click();
    const reply = page.getByLabelText("Reply as operator");
    await expect.element(reply).toHaveAccessibleDescription(/sent to \+14155550123 as a text message/);
    await reply.fill("Yes, from 9 to 1.");
    await page.getByRole("button", { name: "Send text" }).click();
    await expect.element(messages).toHaveTextContent("Yes, from 9 to 1.");
    await commands.saveScreenshot("inbox-sms");
  });

  it("refuses the admin section to a non-operator and opens it to an operator", async () => {
    await signIn(await createAccount(), "#/admin");
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("Only platform operators may use the administration section.");
    unmountConsole();

    const operator = await createAccount({ operator: true });
    await signIn(operator, "#/admin");
    await expect.element(page.getByRole("table", { name: "Accounts" })).toHaveTextContent(operator.email);
    await commands.saveScreenshot("admin");
  });

  it("shows the balance with its ledger, and an account's ledger to an operator", async () => {
    const account = await createAccount();
    await signIn(account, "#/billing");
    const ledger = page.getByRole("table", { name: "Ledger" });
    await expect.element(ledger).toHaveTextContent("Opening balance");
    await expect.element(ledger).toHaveTextContent("$10.00");
    await expect.element(ledger).not.toHaveTextContent("10.0000");
    await expect.element(page.getByTestId("balance")).toHaveTextContent("$10.00");
    await commands.saveScreenshot("ledger");
    unmountConsole();

    const operator = await createAccount({ operator: true });
    await signIn(operator, `#/admin/${account.accountId}`);
    await expect.element(page.getByRole("heading", { name: `Account ${account.accountId}` })).toBeVisible();
    await expect.element(page.getByRole("table", { name: "Ledger" })).toHaveTextContent("Opening balance");
  });

  it("shows the first webhook signing secret once, and rotates it with an overlap", async () => {
    await signIn(await createAccount(), "#/assistants/new");
    await page.getByLabelText("Name", { exact: true }).fill("Hooked");
    await page.getByLabelText("Call webhook URL").fill(`${inject("controlUrl")}/hook`);
    await page.getByLabelText("Send the call webhook").click();
    await page.getByRole("button", { name: "Create assistant" }).click();
    await expect.element(page.getByRole("heading", { name: "Hooked" })).toBeVisible();
    const shown = page.getByTestId("shown-once");
    await expect.element(shown).toHaveTextContent(/^whsec_/);
    const first = shown.element().textContent!;
    await page.getByRole("button", { name: "Done" }).click();
    await expect.element(shown).not.toBeInTheDocument();

    location.hash = "#/webhooks";
    const secrets = page.getByRole("list", { name: "Signing secrets" });
    await expect.element(secrets).toHaveTextContent("current");
    const confirm = window.confirm;
    window.confirm = () => true;
    onTestFinished(() => {
      window.confirm = confirm;
    });
    await page.getByLabelText("Keep the previous secret signing for").selectOptions("3600");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect.element(shown).toHaveTextContent(/^whsec_/);
    expect(shown.element().textContent).not.toBe(first);
    await expect.element(page.getByText(/The previous secret also signs until/)).toBeVisible();
    await expect.element(secrets).toHaveTextContent(/retired, signs until/);
    await commands.saveScreenshot("webhook-secrets");
  });

  it("lists webhook deliveries, sends a test event and redelivers it", async () => {
    await signIn(await createAccount(), "#/webhooks");
    await expect.element(page.getByText("No deliveries yet.")).toBeVisible();
    await page.getByLabelText("Webhook URL").fill("not a url");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.element(page.getByRole("alert")).toBeVisible();
    await page.getByLabelText("Webhook URL").fill(`${inject("controlUrl")}/hook`);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.element(page.getByText(/Test event \d+ queued\./)).toBeVisible();
    const table = page.getByRole("table", { name: "Webhook deliveries" });
    await expect.element(table).toHaveTextContent("webhook.test");
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh" }).click();
          return table.element().textContent;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toMatch(/Delivered.*200/s);
    await commands.saveScreenshot("webhooks");
    await page.getByRole("button", { name: /Redeliver event/ }).click();
    await expect.element(page.getByText(/Event \d+ \(webhook\.test\) queued again\./)).toBeVisible();
  });

  it("fits a 390 px phone and 200% zoom: no sideways scroll, navigation and main actions reachable", async () => {
    const operator = await createAccount({ operator: true });
    // 200% zoom of a 1280 × 800 screen lays the page out in 640 × 400 CSS pixels.
    const sizes: [number, number][] = [
      [390, 844],
      [640, 400],
    ];
    const screens: [hash: string, action: string, role: "button" | "link"][] = [
      ["#/assistants", "New assistant", "link"],
      ["#/knowledge", "Create knowledge base", "button"],
      ["#/calls", "Filter", "button"],
      ["#/appointments", "Filter", "button"],
      ["#/calendars", "Connect CalDAV calendar", "button"],
      ["#/numbers", "Add number", "button"],
      ["#/keys", "Create key", "button"],
      ["#/webhooks", "Send test event", "button"],
      ["#/billing", "Next", "button"],
      ["#/admin", "Create account", "button"],
    ];
    try {
      await signIn(operator);
      for (const [width, height] of sizes) {
        // The test iframe itself: what the console's media queries and rem sizes see.
        await page.viewport(width, height);
        expect(window.innerWidth).toBe(width);
        for (const [hash, action, role] of screens) {
          location.hash = hash;
          const control = page.getByRole(role, { name: action, exact: true });
          await expect.element(control).toBeInTheDocument();
          control.element().scrollIntoView();
          await expect.element(control, { message: `${action} at ${width}px` }).toBeVisible();
          const root = document.documentElement;
          expect(root.scrollWidth, `${hash} at ${width}px`).toBeLessThanOrEqual(root.clientWidth);
        }
        for (const name of ["Assistants", "Inbox", "Calendars", "Webhooks", "Balance", "Admin"]) {
          const link = page.getByRole("link", { name, exact: true });
          link.element().scrollIntoView();
          await expect.element(link).toBeVisible();
        }
        if (width === 390) {
          location.hash = "#/webhooks";
          await expect.element(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
          await commands.saveScreenshot("phone");
        }
      }
    } finally {
      await page.viewport(1280, 860);
    }
  });
});
