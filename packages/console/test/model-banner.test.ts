import { afterEach, describe, expect, inject, it } from "vitest";
import { page } from "vitest/browser";
import { createAccount, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

// The banner reads the deployment's chat models (aiModels), as /readyz's `model` says the same.
describe("the no-model banner", () => {
  it("says, on a server without a chat model, that the fallback answers for free and what to set", async () => {
    const modellessApiBase = inject("modellessApiBase");
    await signIn(await createAccount({ server: "modelless" }), "#/assistants", modellessApiBase);
    const banner = page.getByTestId("model-banner");
    await expect.element(banner).toBeVisible();
    await expect.element(banner).toHaveTextContent(/No chat model is configured/);
    await expect.element(banner).toHaveTextContent(/free of charge in chats and\s+simulated calls/);
    await expect.element(banner).toHaveTextContent(/OPENAI_BASE_URL/);
    const ready = (await (await fetch(`${modellessApiBase}/readyz`)).json()) as { model: { configured: boolean } };
    expect(ready.model.configured).toBe(false);
  });

  it("is not shown on a server with a chat model", async () => {
    await signIn(await createAccount(), "#/assistants");
    await expect.element(page.getByRole("heading", { name: "Assistants" }).first()).toBeVisible();
    const ready = (await (await fetch(`${inject("apiBase")}/readyz`)).json()) as { model: { configured: boolean } };
    expect(ready.model.configured).toBe(true);
    await expect.element(page.getByTestId("model-banner")).not.toBeInTheDocument();
  });
});
