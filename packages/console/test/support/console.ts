import { expect, inject } from "vitest";
import { page } from "vitest/browser";
import "../../src/voxgate-console.ts";
import type { VoxgateConsole } from "../../src/voxgate-console.component.ts";
import type { CreatedAccount, CreatedCalendar } from "./global-setup.ts";

/** A fresh account on the real server, so tests never share assistants, leads or conversations. */
export async function createAccount(
  options: { operator?: boolean; server?: "main" | "deaf" | "modelless" } = {},
): Promise<CreatedAccount> {
  const response = await fetch(`${inject("controlUrl")}/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(options),
  });
  if (!response.ok) throw new Error(`control /accounts failed: ${await response.text()}`);
  return (await response.json()) as CreatedAccount;
}

/** Puts `<voxgate-console>` on the page, talking to the test server (or `apiBase`), at `hash`. */
export function mountConsole(hash = "#/assistants", apiBase = inject("apiBase")): VoxgateConsole {
  history.replaceState(null, "", hash);
  const element = document.createElement("voxgate-console");
  element.setAttribute("api-base", apiBase);
  document.body.append(element);
  return element;
}

/** Mounts the console at `hash` and signs in through its form. */
export async function signIn(
  account: { email: string; password: string },
  hash?: string,
  apiBase?: string,
): Promise<void> {
  mountConsole(hash, apiBase);
  await page.getByLabelText("Email").fill(account.email);
  await page.getByLabelText("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect.element(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

export function unmountConsole(): void {
  for (const element of document.querySelectorAll("voxgate-console, voxgate-chat")) element.remove();
  localStorage.clear();
}

/** A GraphQL request as the signed-in console user, for arranging data no screen under test makes. */
export async function graphql<T>(query: string, apiBase = inject("apiBase")): Promise<T> {
  const { token } = JSON.parse(localStorage.getItem("voxgate-console:session") ?? "{}") as { token?: string };
  const response = await fetch(`${apiBase}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** A fresh calendar on the test CalDAV server (Radicale). */
export async function createCalendar(): Promise<CreatedCalendar> {
  const response = await fetch(`${inject("controlUrl")}/calendars`, { method: "POST" });
  if (!response.ok) throw new Error(`control /calendars failed: ${await response.text()}`);
  return (await response.json()) as CreatedCalendar;
}

/** Deletes a calendar on the CalDAV server, as its owner might: connections to it break when next used. */
export async function deleteCalendar(url: string): Promise<void> {
  const response = await fetch(`${inject("controlUrl")}/calendars/delete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }),
  });
  if (!response.ok) throw new Error(`control /calendars/delete failed: ${response.status}`);
}

/** Writes an event into a calendar as another client would: busy from `from` to `to`. */
export async function addBusyTime(url: string, from: Date, to: Date): Promise<void> {
  const response = await fetch(`${inject("controlUrl")}/calendars/busy`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, from: from.toISOString(), to: to.toISOString() }),
  });
  if (!response.ok) throw new Error(`control /calendars/busy failed: ${response.status}`);
}
