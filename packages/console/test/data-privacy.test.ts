import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { createAccount, createCalendar, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

describe("data & privacy", () => {
  it("sets retention from the balance screen, refusing a bad value, and lists the audit log", async () => {
    await signIn(await createAccount(), "#/billing");
    await expect.element(page.getByRole("heading", { name: "Data & privacy" })).toBeVisible();
    const recordings = page.getByLabelText("Call recordings");
    await expect.element(recordings).toHaveValue(null);
    await expect.element(page.getByLabelText("Audit log entries")).toHaveValue(365);

    await recordings.fill("0");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect.element(page.getByText(/recording days field must be at least 1/i)).toBeVisible();

    await recordings.fill("30");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect.element(page.getByRole("cell", { name: "retention.updated" })).toBeVisible();
    await expect.element(page.getByRole("cell", { name: "account.signed_in" })).toBeVisible();
    const { dataRetention } = await graphql<{ dataRetention: { recordingDays: number | null } }>(
      "query { dataRetention { recordingDays } }",
    );
    expect(dataRetention.recordingDays).toBe(30);
    await expect.element(page.getByLabelText("Call recordings")).toHaveValue(30);
  });

  it("exports a customer's data as a zip, then erases it after the identifier is typed again", async () => {
    await signIn(await createAccount(), "#/billing");
    const phone = "+14155550142";
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Caller", type: web }) { id } }',
    );
    const { createCampaign } = await graphql<{ createCampaign: { id: number } }>(
      `mutation { createCampaign(input: { name: "Renewals", assistantId: ${createAssistant.id} }) { id } }`,
    );
    const { createLead } = await graphql<{ createLead: { id: number } }>(
      `mutation { createLead(input: { campaignId: ${createCampaign.id}, phoneNumber: "${phone}" }) { id } }`,
    );
    const form = page.getByRole("form", { name: "Export or erase a customer" });
    await expect.element(form).toBeVisible();

    // A refusal shows in the form.
    await page.getByLabelText("Phone number").fill("not a number");
    await form.getByRole("button", { name: "Export" }).click();
    await expect.element(form.getByRole("alert").first()).toBeVisible();

    // A national number, read in the country given.
    await page.getByLabelText("Phone number").fill("(415) 555-0142");
    await page.getByLabelText("Country (optional)").fill("US");
    await form.getByRole("button", { name: "Export" }).click();
    await expect.element(page.getByText(/^Export \d+ is done/), { timeout: 30_000 }).toBeVisible();
    await expect.element(page.getByRole("list", { name: "Exported records" })).toHaveTextContent(/leads: 1/);
    const saved = nextSavedFile();
    await page.getByRole("button", { name: "Download archive" }).click();
    const { name, href } = await saved;
    expect(name).toMatch(/^customer-data-\d+\.zip$/);
    const files = await unzip(await (await fetch(href)).arrayBuffer());
    const customer = JSON.parse(files.get("customer.json")!) as {
      leads: { id: number; phoneNumber: string }[];
    };
    expect(customer.leads).toEqual([expect.objectContaining({ id: createLead.id, phoneNumber: phone })]);

    // Erasure waits for the identifier typed again.
    await form.getByRole("button", { name: "Erase…" }).click();
    const confirm = page.getByRole("form", { name: "Confirm erasure" });
    await expect.element(confirm).toHaveTextContent(/irreversible/);
    const erase = confirm.getByRole("button", { name: "Erase permanently" });
    await expect.element(erase).toBeDisabled();
    await page.getByLabelText("Type the identifier again to confirm").fill("(415) 555-0143");
    await expect.element(erase).toBeDisabled();
    await page.getByLabelText("Type the identifier again to confirm").fill("(415) 555-0142");
    await erase.click();
    await expect.element(page.getByText(/^Erasure \d+ is done/), { timeout: 30_000 }).toBeVisible();
    await expect.element(page.getByRole("list", { name: "Erased records" })).toHaveTextContent(/leads: 1/);
    const { leads } = await graphql<{ leads: { items: { id: number }[] } }>(
      `query { leads(campaignId: ${createCampaign.id}) { items { id } } }`,
    );
    expect(leads.items).toEqual([]);

    // At phone width the form fits, its actions in reach.
    await page.viewport(390, 844);
    try {
      for (const name of ["Export", "Erase…"]) {
        const button = form.getByRole("button", { name, exact: true });
        button.element().scrollIntoView();
        await expect.element(button).toBeVisible();
      }
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(document.documentElement.clientWidth);
    } finally {
      await page.viewport(1280, 860);
    }
  });

  it("downloads the whole audit log as JSON, oldest first", async () => {
    await signIn(await createAccount(), "#/billing");
    await expect.element(page.getByRole("cell", { name: "account.signed_in" })).toBeVisible();
    const saved = nextSavedFile();
    await page.getByRole("button", { name: "Download audit log" }).click();
    const { name, href } = await saved;
    expect(name).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.json$/);
    const entries = (await (await fetch(href)).json()) as { id: number; action: string }[];
    expect(entries.map((entry) => entry.action)).toContain("account.signed_in");
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});

// A real CalDAV server (Radicale) behind the real Voxgate server.
describe.skipIf(!inject("caldav"))("customer data: calendar events an erasure left", () => {
  it("lists the event left under the erasure, with why and what to do, and marks it erased by hand", async () => {
    await signIn(await createAccount(), "#/billing");
    const calendar = await createCalendar();
    const { createCalendarConnection } = await graphql<{ createCalendarConnection: { id: number } }>(
      `mutation { createCalendarConnection(input: { name: "Front desk", provider: caldav,
        url: ${JSON.stringify(calendar.url)}, username: ${JSON.stringify(calendar.username)},
        password: ${JSON.stringify(calendar.password)} }) { id } }`,
    );
    const weekday = '[{ start: "00:00", end: "24:00" }]';
    const { createAppointmentType } = await graphql<{ createAppointmentType: { id: number } }>(
      `mutation { createAppointmentType(input: { connectionId: ${createCalendarConnection.id}, name: "Consultation",
        durationMinutes: 30, timezone: "UTC", businessHours: { mon: ${weekday}, tue: ${weekday}, wed: ${weekday},
        thu: ${weekday}, fri: ${weekday}, sat: ${weekday}, sun: ${weekday} } }) { id } }`,
    );
    const from = new Date();
    const { availableSlots } = await graphql<{ availableSlots: { start: string }[] }>(
      `{ availableSlots(appointmentTypeId: ${createAppointmentType.id}, from: "${from.toISOString()}",
        to: "${new Date(from.getTime() + 7 * 86_400_000).toISOString()}") { start } }`,
    );
    const { bookAppointment } = await graphql<{ bookAppointment: { id: number } }>(
      `mutation { bookAppointment(input: { appointmentTypeId: ${createAppointmentType.id},
        startsAt: "${availableSlots[0]!.start}", customerName: "Ada Lovelace", customerPhone: "+14155550177" }) { id } }`,
    );
    // The business disconnects the calendar: the event stays in it, out of Voxgate's reach.
    await graphql(`mutation { deleteCalendarConnection(id: ${createCalendarConnection.id}) }`);

    const form = page.getByRole("form", { name: "Export or erase a customer" });
    await page.getByLabelText("Phone number").fill("+14155550177");
    await form.getByRole("button", { name: "Erase…" }).click();
    await page.getByLabelText("Type the identifier again to confirm").fill("+14155550177");
    await page.getByRole("button", { name: "Erase permanently" }).click();
    await expect.element(page.getByText(/^Erasure \d+ is done/), { timeout: 30_000 }).toBeVisible();
    const table = page.getByRole("table", { name: "Calendar events left" });
    await expect.element(table).toHaveTextContent("CalDAV");
    await expect.element(table).toHaveTextContent(new Date(availableSlots[0]!.start).toLocaleString());
    await expect.element(table).toHaveTextContent("Its calendar connection was deleted");
    await expect.element(table).toHaveTextContent("Erase it in that calendar by hand.");
    expect(table.element().textContent).not.toContain("Ada Lovelace");
    expect(table.element().textContent).not.toContain("4155550177");
    table.element().scrollIntoView({ block: "center" });
    await commands.saveScreenshot("customer-data-events-left");

    await page
      .getByRole("button", { name: `Mark the event of appointment ${bookAppointment.id} erased` })
      .click();
    await expect.element(table).toHaveTextContent(/Marked erased by hand on/);
    const id = Number(
      /Erasure (\d+) is done/.exec(page.getByText(/^Erasure \d+ is done/).element().textContent!)![1],
    );
    const { customerDataJob } = await graphql<{
      customerDataJob: { externalEventsLeftDetails: { handledBy: string | null }[] };
    }>(`{ customerDataJob(id: ${id}) { externalEventsLeftDetails { handledBy } } }`);
    expect(customerDataJob.externalEventsLeftDetails).toEqual([
      { handledBy: expect.stringMatching(/^user:\d+$/) },
    ]);
  });
});

/** The next file the page hands to the browser's downloads (a link with `download`), kept from saving. */
function nextSavedFile(): Promise<{ name: string; href: string }> {
  return new Promise((resolve) => {
    const listener = (event: MouseEvent) => {
      const link = event.composedPath()[0];
      if (!(link instanceof HTMLAnchorElement) || !link.download) return;
      event.preventDefault();
      document.removeEventListener("click", listener, true);
      resolve({ name: link.download, href: link.href });
    };
    document.addEventListener("click", listener, true);
  });
}

/** The files of a zip archive, read from its central directory (stored or deflated entries). */
async function unzip(buffer: ArrayBuffer): Promise<Map<string, string>> {
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  const count = view.getUint16(end + 10, true);
  let entry = view.getUint32(end + 16, true);
  const files = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    const method = view.getUint16(entry + 10, true);
    const size = view.getUint32(entry + 20, true);
    const nameLength = view.getUint16(entry + 28, true);
    const extraLength = view.getUint16(entry + 30, true);
    const commentLength = view.getUint16(entry + 32, true);
    const local = view.getUint32(entry + 42, true);
    const name = new TextDecoder().decode(new Uint8Array(buffer, entry + 46, nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = new Uint8Array(buffer, start, size);
    const bytes =
      method === 8
        ? new Uint8Array(
            await new Response(
              new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw")),
            ).arrayBuffer(),
          )
        : data;
    files.set(name, new TextDecoder().decode(bytes));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
