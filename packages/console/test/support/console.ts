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
  for (const element of document.querySelectorAll("voxgate-console, voxgate-chat")) element.remove();
  localStorage.clear();
}

/** A GraphQL request as the signed-in console user, for arranging data no screen under test makes. */
export async function graphql<T>(query: string): Promise<T> {
  const { token } = JSON.parse(localStorage.getItem("voxgate-console:session") ?? "{}") as { token?: string };
  const response = await fetch(`${inject("apiBase")}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}
