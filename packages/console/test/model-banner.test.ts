import { afterEach, describe, expect, inject, it } from "vitest";
import { page } from "vitest/browser";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

// The banner reads the deployment's chat models (aiModels); /readyz's `model` says the same
// (server: providers/self-hosted-models.test.ts, calls/free-calls.test.ts).
describe("the no-model banner", () => {
  it("says, on a server without a chat model, that the fallback answers for free and what to set", async () => {
    const modellessApiBase = inject("modellessApiBase");
    await signIn(await createAccount({ server: "modelless" }), "#/assistants", modellessApiBase);
    const banner = page.getByTestId("model-banner");
    await expect.element(banner).toBeVisible();
    await expect.element(banner).toHaveTextContent(/No chat model is configured/);
    await expect.element(banner).toHaveTextContent(/free of charge in chats and\s+simulated calls/);
    await expect.element(banner).toHaveTextContent(/OPENAI_BASE_URL/);
  });

  it("is not shown on a server with a chat model", async () => {
    await signIn(await createAccount(), "#/assistants");
    await expect.element(page.getByRole("heading", { name: "Assistants" }).first()).toBeVisible();
    // The console's own question, asked again: once it is answered, the console has had its answer too.
    const { aiModels } = await graphql<{ aiModels: { available: boolean }[] }>(
      "{ aiModels(kind: llm) { available } }",
    );
    expect(aiModels.some((model) => model.available)).toBe(true);
    await expect.element(page.getByTestId("model-banner")).not.toBeInTheDocument();
  });
});
