import { afterEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { SPOKEN_ON_CALL } from "./support/call-script.ts";
import {
  createAssistant,
  mountWidget,
  nextEvent,
  part,
  readCall,
  recordEvents,
  removeWidgets,
  setCapacity,
} from "./support/widget.ts";

afterEach(removeWidgets);

const voiceSettings = { theme: "light", color: "#4f46e5", position: "bottom-right", voice: true };

describe("a web call from <voxgate-chat>, in Chromium with a fake microphone", () => {
  it("talks both ways: the server hears the visitor, the widget plays the answer and acknowledges it, the call is billed", async () => {
    const assistant = await createAssistant({ initialMessage: "", widgetSettings: voiceSettings });
    const events = recordEvents("voxgate-call-start", "voxgate-call-end", "voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));

    await userEvent.click(page.getByRole("button", { name: "Call the assistant" }));
    await expect.element(page.getByRole("button", { name: "Hang up" })).toBeVisible();
    await expect.element(page.getByText("On a call: speak now")).toBeVisible();
    await vi.waitFor(() => expect(events.map((event) => event.type)).toContain("voxgate-call-start"), {
      timeout: 15_000,
    });
    const callId = events[0]!.detail.callId as number;

    // The microphone's words reach the server as the caller's turn; the answer comes back as
    // audio, is played, and its mark is acknowledged (the turn's playedAt).
    await expect.element(page.getByText(`Echo: ${SPOKEN_ON_CALL}`), { timeout: 30_000 }).toBeVisible();
    await expect.element(page.getByText(SPOKEN_ON_CALL, { exact: true })).toBeVisible();
    expect(part(widget, "message-spoken")).not.toBeNull();
    await vi.waitFor(
      async () =>
        expect((await readCall(callId)).turns).toEqual([
          { speaker: "customer", text: SPOKEN_ON_CALL, played: false },
          { speaker: "assistant", text: `Echo: ${SPOKEN_ON_CALL}`, played: true },
        ]),
      { timeout: 30_000, interval: 200 },
    );

    await userEvent.click(page.getByRole("button", { name: "Hang up" }));
    await expect.element(page.getByText("Call ended")).toBeVisible();
    await vi.waitFor(
      async () =>
        expect(await readCall(callId)).toMatchObject({ status: "ended_by_customer", totalCost: "0.10" }),
      { timeout: 15_000, interval: 200 },
    );
    expect(events.map((event) => event.type)).toEqual(["voxgate-call-start", "voxgate-call-end"]);
    expect(events[1]!.detail).toEqual({ callId, status: "ended_by_customer" });
  }, 90_000);

  it("hangs up when the element leaves the page", async () => {
    const assistant = await createAssistant({ initialMessage: "", widgetSettings: voiceSettings });
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    const live = nextEvent<CustomEvent<{ callId: number }>>(widget, "voxgate-call-start");
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.click(page.getByRole("button", { name: "Call the assistant" }));
    const { callId } = (await live).detail;

    // Once removed, the element is out of the document: its last event is heard on the element itself.
    const ended = nextEvent<CustomEvent>(widget, "voxgate-call-end");
    widget.remove();
    expect((await ended).detail).toEqual({ callId, status: "ended_by_customer" });
    await vi.waitFor(
      async () => expect(await readCall(callId)).toMatchObject({ status: "ended_by_customer" }),
      { timeout: 15_000, interval: 200 },
    );
  }, 60_000);

  it("shows no call button when voice is off, and explains a server at capacity", async () => {
    const chatOnly = await createAssistant();
    mountWidget({ assistant: chatOnly.uuid, "api-base": chatOnly.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(page.getByRole("button", { name: "Call the assistant" }).query()).toBeNull();
    removeWidgets();

    const assistant = await createAssistant({ widgetSettings: voiceSettings });
    const errors = recordEvents("voxgate-error");
    mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await setCapacity(0);
    try {
      await userEvent.click(page.getByRole("button", { name: "Call the assistant" }));
      await expect
        .element(page.getByRole("alert"))
        .toHaveTextContent("All our lines are busy. Please try again in a moment.");
    } finally {
      await setCapacity(null);
    }
    expect(errors.at(-1)?.detail).toMatchObject({ kind: "at-capacity", status: 503 });
    await expect.element(page.getByRole("button", { name: /Try again in \d+ s/ })).toBeVisible();
  });
});
