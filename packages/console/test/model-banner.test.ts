import { afterEach, describe, expect, inject, it } from "vitest";
import { page } from "vitest/browser";
import { createAccount, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

/**
 * The console's own question about the deployment's chat models, seen as it is answered: whether any
 * is available. Watches the page's fetch until that request went by.
 */
function consoleModelsAnswered(): Promise<{ available: boolean }> {
  const original = globalThis.fetch;
  return new Promise((resolve) => {
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (typeof init?.body === "string" && init.body.includes("ConsoleChatModels")) {
        globalThis.fetch = original;
        const { data } = (await response.clone().json()) as { data: { aiModels: { available: boolean }[] } };
        resolve({ available: data.aiModels.some((model) => model.available) });
      }
      return response;
    };
  });
}

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
    const answered = consoleModelsAnswered();
    await signIn(await createAccount(), "#/assistants");
    // Absent only means something once the console has had its answer (and rendered after it).
    const { available } = await answered;
    expect(available).toBe(true);
    const root = document.querySelector("voxgate-console") as HTMLElement & {
      updateComplete: Promise<unknown>;
    };
    await root.updateComplete;
    await expect.element(page.getByRole("heading", { name: "Assistants" }).first()).toBeVisible();
    await expect.element(page.getByTestId("model-banner")).not.toBeInTheDocument();
  });
});
