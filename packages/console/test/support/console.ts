import { inject } from "vitest";
import "../../src/voxgate-console.ts";
import type { VoxgateConsole } from "../../src/voxgate-console.component.ts";
import type { CreatedAccount } from "./global-setup.ts";

/** A fresh account on the real server, so tests never share assistants, leads or conversations. */
export async function createAccount(options: { operator?: boolean } = {}): Promise<CreatedAccount> {
  const response = await fetch(`${inject("controlUrl")}/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(options),
  });
  if (!response.ok) throw new Error(`control /accounts failed: ${await response.text()}`);
  return (await response.json()) as CreatedAccount;
}

/** Puts `<voxgate-console>` on the page, talking to the test server, at `hash`. */
export function mountConsole(hash = "#/assistants"): VoxgateConsole {
  history.replaceState(null, "", hash);
  const element = document.createElement("voxgate-console");
  element.setAttribute("api-base", inject("apiBase"));
  document.body.append(element);
  return element;
}

export function unmountConsole(): void {
  for (const element of document.querySelectorAll("voxgate-console")) element.remove();
  localStorage.clear();
}
