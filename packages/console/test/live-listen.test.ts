import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import type { VxLiveListen } from "../src/live-listen.ts";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";
import { visitorCall } from "./support/visitor-call.ts";

afterEach(() => {
  unmountConsole();
});

const player = () =>
  document
    .querySelector("voxgate-console")!
    .shadowRoot!.querySelector("vx-call")!
    .shadowRoot!.querySelector<VxLiveListen>("vx-live-listen");

describe("live listen in the console", () => {
  it("plays a live call's audio with its transcript beside, and offers no listening once it ended", {
    timeout: 90_000,
  }, async () => {
    await signIn(await createAccount());
    const { createAssistant } = await graphql<{ createAssistant: { uuid: string } }>(
      'mutation { createAssistant(input: { name: "Front desk", type: web, widgetSettings: { voice: true } }) { uuid } }',
    );
    const call = await visitorCall(createAssistant.uuid);
    // The call page reads the status once and then follows its changes; a change made between the two
    // (the call connecting just as the page opens) shows only with the next one, so the page is opened
    // once the call runs.
    await expect
      .poll(
        async () =>
          (await graphql<{ call: { status: string } }>(`query { call(id: ${call.callId}) { status } }`)).call
            .status,
      )
      .toBe("in_progress");
    location.hash = `#/calls/${call.callId}`;
    await expect.element(page.getByRole("heading", { name: /Call \d+/ })).toHaveTextContent("In progress");

    await page.getByRole("button", { name: "Listen", exact: true }).click();
    await expect.element(page.getByText("Listening live…")).toBeVisible();
    // The greeting plays while the visitor is silent; then the visitor speaks and is answered.
    call.say("hi");
    await expect.poll(() => player()?.framesReceived ?? 0, { timeout: 20_000 }).toBeGreaterThan(50);
    await expect.poll(() => player()?.samplesPlayed ?? 0, { timeout: 20_000 }).toBeGreaterThan(8000);
    // What was played was sound, not silence: the analyser after the player measured it.
    await expect.poll(() => player()?.peakLevel ?? 0, { timeout: 20_000 }).toBeGreaterThan(0.05);
    await expect
      .element(page.getByRole("list", { name: "Live transcript" }), { timeout: 30_000 })
      .toHaveTextContent("Assistant: Echo: hi");
    await commands.saveScreenshot("live-listen");

    call.hangUp();
    await expect
      .element(page.getByRole("heading", { name: /Call \d+/ }))
      .toHaveTextContent("Ended by the caller");
    await expect.element(page.getByRole("button", { name: "Listen", exact: true })).not.toBeInTheDocument();
    // The server refuses a listen to an ended call too.
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${inject("apiBase").replace(/^http/, "ws")}/calls/live-audio`);
      const { token } = JSON.parse(localStorage.getItem("voxgate-console:session")!) as { token: string };
      socket.addEventListener("open", () =>
        socket.send(
          JSON.stringify({ type: "listen", callId: call.callId, authorization: `Bearer ${token}` }),
        ),
      );
      socket.addEventListener("close", (event) => resolve(event.code));
    });
    expect(refused).toBe(4409);
  });
});

describe("taking a phone call over in the console", () => {
  it("rings the operator's own phone for a running phone call, and says what is wrong with a number", {
    timeout: 60_000,
  }, async () => {
    await signIn(await createAccount());
    const line = `+1415556${String(Date.now() % 10_000).padStart(4, "0")}`;
    const { addPhoneNumber } = await graphql<{ addPhoneNumber: { id: number } }>(
      `mutation { addPhoneNumber(input: { kind: normal, phoneNumber: "${line}" }) { id } }`,
    );
    await graphql(
      `mutation { createAssistant(input: { name: "Front desk", type: inbound, phoneNumberId: ${addPhoneNumber.id} }) { id } }`,
    );
    const { simulateInboundCall: call } = await graphql<{ simulateInboundCall: { id: number } }>(
      `mutation { simulateInboundCall(input: { phoneNumberId: ${addPhoneNumber.id}, from: "+14155550199" }) { id } }`,
    );
    location.hash = `#/calls/${call.id}`;
    await expect.element(page.getByRole("heading", { name: /Call \d+/ })).toHaveTextContent("In progress");

    const phone = page.getByLabelText("Your phone number");
    // A premium-rate number is refused under the field.
    await phone.fill("+19005550123");
    await page.getByRole("button", { name: "Take over" }).click();
    await expect.element(phone).toHaveAccessibleDescription(/premium-rate or shared-cost/);

    await phone.fill("+14155550142");
    await page.getByRole("button", { name: "Take over" }).click();
    await expect
      .element(page.getByText("Calling +14155550142: the caller is on hold until you accept."))
      .toBeVisible();
    // The transfer's leg rings the operator's phone: a call of its own, linked to this one.
    const { call: taken } = await graphql<{ call: { transferredToCallId: number | null } }>(
      `query { call(id: ${call.id}) { transferredToCallId } }`,
    );
    expect(taken.transferredToCallId).not.toBeNull();
  });
});
