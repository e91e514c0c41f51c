import { afterEach, describe, expect, inject, it, onTestFinished } from "vitest";
import { commands, page } from "vitest/browser";
import {
  addBusyTime,
  createAccount,
  createCalendar,
  deleteCalendar,
  graphql,
  signIn,
  unmountConsole,
} from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

/** Answers every confirm() of the test with yes. */
function acceptConfirms(): void {
  const original = window.confirm;
  window.confirm = () => true;
  onTestFinished(() => {
    window.confirm = original;
  });
}

/** A CalDAV connection and a Monday-to-Friday appointment type, arranged over GraphQL. */
async function arrangeCalendar(name: string) {
  const calendar = await createCalendar();
  const { createCalendarConnection } = await graphql<{ createCalendarConnection: { id: number } }>(
    `mutation { createCalendarConnection(input: { name: ${JSON.stringify(name)}, provider: caldav,
      url: ${JSON.stringify(calendar.url)}, username: ${JSON.stringify(calendar.username)},
      password: ${JSON.stringify(calendar.password)} }) { id } }`,
  );
  const weekday = '[{ start: "09:00", end: "17:00" }]';
  const { createAppointmentType } = await graphql<{ createAppointmentType: { id: number } }>(
    `mutation { createAppointmentType(input: { connectionId: ${createCalendarConnection.id}, name: "Consultation",
      durationMinutes: 30, timezone: "Europe/Berlin",
      businessHours: { mon: ${weekday}, tue: ${weekday}, wed: ${weekday}, thu: ${weekday}, fri: ${weekday} } }) { id } }`,
  );
  return { calendar, connectionId: createCalendarConnection.id, typeId: createAppointmentType.id };
}

// A real CalDAV server (Radicale) behind the real Voxgate server, as in the server's calendar tests.
describe.skipIf(!inject("caldav"))("calendars in the console", () => {
  it("connects a CalDAV calendar (a wrong password gets the provider's reason), defines an appointment type and previews its free slots", async () => {
    await signIn(await createAccount(), "#/calendars");
    await expect.element(page.getByText("No calendars yet: connect one below.")).toBeVisible();
    const calendar = await createCalendar();

    const caldav = page.getByRole("form", { name: "CalDAV" });
    await caldav.getByLabelText("Name", { exact: true }).fill("Front desk");
    await caldav.getByLabelText("Calendar URL").fill(calendar.url);
    await caldav.getByLabelText("Username").fill(calendar.username);
    await caldav.getByLabelText("Password").fill("not-the-password");
    await caldav.getByRole("button", { name: "Connect CalDAV calendar" }).click();
    await expect
      .element(caldav.getByRole("alert"))
      .toHaveTextContent(/CalDAV: the calendar server refused the username or password \(HTTP 401\)/);
    await caldav.getByLabelText("Password").fill(calendar.password);
    await caldav.getByRole("button", { name: "Connect CalDAV calendar" }).click();
    const connections = page.getByRole("list", { name: "Calendar connections" });
    await expect.element(connections.getByRole("heading", { name: "Front desk Connected" })).toBeVisible();

    await page.getByRole("button", { name: "Add an appointment type to Front desk" }).click();
    const form = page.getByRole("form", { name: "New appointment type for Front desk" });
    await form.getByLabelText("Name").fill("Consultation");
    await form.getByLabelText("Time zone").fill("Europe/Berlin");
    await form.getByLabelText("Minimum notice (minutes)").fill("0");
    const duration = form.getByLabelText("Duration (minutes)");
    await duration.fill("");
    await form.getByRole("button", { name: "Create appointment type" }).click();
    await expect.element(duration).toHaveAccessibleDescription("The duration is required.");
    await duration.fill("30");
    // Monday closing before it opens: the server's message, named by its day, under the hours.
    await form.getByLabelText("Monday 1 until").fill("08:00");
    await form.getByRole("button", { name: "Create appointment type" }).click();
    await expect
      .element(form.getByRole("group", { name: "Business hours" }))
      .toHaveAccessibleDescription("Monday, hours 1: A range must start before it ends.");
    await form.getByLabelText("Monday 1 until").fill("17:00");
    await form.getByRole("button", { name: "Add hours on Saturday" }).click();
    await form.getByLabelText("Saturday 1 until").fill("12:00");
    await form.getByRole("button", { name: "Create appointment type" }).click();
    const types = page.getByRole("table", { name: "Appointment types of Front desk" });
    await expect.element(types).toHaveTextContent("Consultation");
    await expect.element(types).toHaveTextContent("Sat 09:00–12:00");
    await expect.element(types).toHaveTextContent("Europe/Berlin");

    // The next seven days hold weekdays, each opening at 09:00 in Berlin.
    await page.getByRole("button", { name: "Preview the availability of Consultation" }).click();
    const slots = page.getByRole("list", { name: "Free slots of Consultation" });
    await expect.element(slots).toHaveTextContent(/09:00/);
    await commands.saveScreenshot("calendars");

    // Another client fills the week: the preview reads busy time from the calendar itself.
    const now = Date.now();
    await addBusyTime(calendar.url, new Date(now - 3_600_000), new Date(now + 9 * 86_400_000));
    await page.getByRole("button", { name: "Preview the availability of Consultation" }).click();
    await expect.element(page.getByText("No free slots in the next 7 days.")).toBeVisible();

    acceptConfirms();
    await page.getByRole("button", { name: "Delete appointment type Consultation" }).click();
    await expect.element(types).not.toBeInTheDocument();
    await page.getByRole("button", { name: "Delete Front desk" }).click();
    await expect.element(page.getByText("No calendars yet: connect one below.")).toBeVisible();
  });

  it("shows a broken calendar on every screen until it is repaired", async () => {
    await signIn(await createAccount(), "#/calendars");
    const { calendar } = await arrangeCalendar("Front desk");
    await page.getByRole("link", { name: "Appointments" }).click();
    await page.getByRole("link", { name: "Calendars" }).click();
    await expect.element(page.getByRole("heading", { name: "Front desk Connected" })).toBeVisible();
    await expect.element(page.getByTestId("calendar-banner")).not.toBeInTheDocument();

    // The calendar is deleted at the provider: the next use breaks the connection.
    await deleteCalendar(calendar.url);
    await page.getByRole("button", { name: "Preview the availability of Consultation" }).click();
    await expect.element(page.getByRole("heading", { name: "Front desk Needs repair" })).toBeVisible();
    await expect.element(page.getByText("This calendar stopped working.")).toBeVisible();
    await expect.element(page.getByText(/HTTP 404/).first()).toBeVisible();
    const banner = page.getByTestId("calendar-banner");
    await expect.element(banner).toHaveTextContent("The calendar “Front desk” stopped working");
    await commands.saveScreenshot("calendar-broken");

    // Wherever the owner is, the banner says so and leads to the repair.
    await page.getByRole("link", { name: "Assistants", exact: true }).click();
    await expect.element(page.getByRole("heading", { name: "Assistants" })).toBeVisible();
    await banner.getByRole("link", { name: "Repair in Calendars" }).click();
    await page.getByRole("button", { name: "Repair Front desk" }).click();
    const repair = page.getByRole("form", { name: "Repair Front desk" });
    await expect.element(repair.getByLabelText("Username")).toHaveValue(calendar.username);
    const replacement = await createCalendar();
    await repair.getByLabelText("Calendar URL").fill(replacement.url);
    await repair.getByRole("button", { name: "Save and check" }).click();
    await expect.element(page.getByText("Front desk is saved and the provider accepted it.")).toBeVisible();
    await expect.element(page.getByRole("heading", { name: "Front desk Connected" })).toBeVisible();
    await expect.element(banner).not.toBeInTheDocument();
  });

  it("says a connection is connected where a provider's sign-in returns (#/calendars/<id>)", async () => {
    await signIn(await createAccount());
    const { connectionId } = await arrangeCalendar("Front desk");
    location.hash = `#/calendars/${connectionId}`;
    await expect.element(page.getByRole("status")).toHaveTextContent("“Front desk” is connected.");
  });
});

// Booked into a CalDAV calendar on Radicale, like the tests above.
describe.skipIf(!inject("caldav"))("bookings in the console", () => {
  it("chooses the appointment types an assistant may book", async () => {
    await signIn(await createAccount());
    await arrangeCalendar("Front desk");
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Booker", type: web }) { id } }',
    );
    location.hash = `#/assistants/${createAssistant.id}`;
    const choice = page.getByRole("checkbox", {
      name: /Consultation \(30 min, Europe\/Berlin, Front desk\)/,
    });
    await expect.element(choice).not.toBeChecked();
    await choice.click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.element(page.getByText("Saved.")).toBeVisible();
    const { assistant } = await graphql<{ assistant: { appointmentTypeIds: number[] } }>(
      `{ assistant(id: ${createAssistant.id}) { appointmentTypeIds } }`,
    );
    expect(assistant.appointmentTypeIds).toHaveLength(1);
    // A reload shows it ticked.
    location.hash = "#/assistants";
    location.hash = `#/assistants/${createAssistant.id}`;
    await expect.element(choice).toBeChecked();
  });

  it("lists an appointment in its own time zone, moves it to another free slot and cancels it", async () => {
    await signIn(await createAccount());
    const { typeId } = await arrangeCalendar("Front desk");
    const from = new Date();
    const { availableSlots } = await graphql<{ availableSlots: { start: string }[] }>(
      `{ availableSlots(appointmentTypeId: ${typeId}, from: "${from.toISOString()}",
        to: "${new Date(from.getTime() + 7 * 86_400_000).toISOString()}") { start } }`,
    );
    await graphql(
      `mutation { bookAppointment(input: { appointmentTypeId: ${typeId}, startsAt: "${availableSlots[0]!.start}",
        customerName: "Ada Lovelace", customerPhone: "+14155550123", notes: "First visit" }) { id } }`,
    );
    location.hash = "#/appointments";
    const table = page.getByRole("table", { name: "Appointments" });
    await expect.element(table).toHaveTextContent("Ada Lovelace");
    await expect.element(table).toHaveTextContent("+14155550123");
    await expect.element(table).toHaveTextContent("Consultation");
    await expect.element(table).toHaveTextContent("Europe/Berlin");
    const berlin = new Intl.DateTimeFormat(undefined, {
      timeZone: "Europe/Berlin",
      hour: "2-digit",
      minute: "2-digit",
    });
    await expect.element(table).toHaveTextContent(berlin.format(new Date(availableSlots[0]!.start)));

    await page.getByRole("button", { name: "Reschedule Ada Lovelace's appointment" }).click();
    const move = page.getByRole("form", { name: "Move Ada Lovelace's appointment" });
    // The first free slot: the appointment's own is taken, by itself.
    const choice = move.getByRole("radio").first();
    await choice.click();
    const movedTo = (choice.element() as HTMLInputElement).value;
    expect(movedTo).not.toBe(availableSlots[0]!.start);
    await commands.saveScreenshot("appointments");
    await move.getByRole("button", { name: "Move appointment" }).click();
    await expect.element(page.getByText(/Ada Lovelace's appointment is moved to/)).toBeVisible();
    await expect.element(table).toHaveTextContent(berlin.format(new Date(movedTo)));
    await expect.element(table).toHaveTextContent("API");

    acceptConfirms();
    await page.getByRole("button", { name: "Cancel Ada Lovelace's appointment" }).click();
    await expect.element(page.getByText(/Ada Lovelace's appointment on .* is cancelled\./)).toBeVisible();
    // Booked ones are listed by default; the cancelled one is under its status.
    await expect.element(page.getByText("No appointments match.")).toBeVisible();
    await page.getByLabelText("Status").selectOptions("cancelled");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.element(table).toHaveTextContent("Cancelled");
  });
});

// The server's real Cal.com client against the Cal.com stand-in (API v2 as documented) the global setup runs.
describe("Cal.com in the console", () => {
  it("connects a Cal.com event type with an API key: a wrong key gets Cal.com's refusal", async () => {
    const calcom = inject("calcom");
    await signIn(await createAccount(), "#/calendars");
    const form = page.getByRole("form", { name: "Cal.com" });
    await form.getByLabelText("Name").fill("Bookings page");
    await form.getByLabelText("API key").fill("cal_live_revoked0000000000000000");
    await form.getByLabelText("Event type ID").fill(String(calcom.eventTypeId));
    await form.getByRole("button", { name: "Connect Cal.com" }).click();
    await expect.element(form.getByText(/Cal\.com: .*\(HTTP 401\)/)).toBeVisible();
    await expect.element(page.getByText("No calendars yet: connect one below.")).toBeVisible();

    await form.getByLabelText("API key").fill(calcom.apiKey);
    await form.getByRole("button", { name: "Connect Cal.com" }).click();
    await expect.element(page.getByRole("status")).toHaveTextContent("The Cal.com account is connected.");
    const card = page.getByRole("list", { name: "Calendar connections" }).getByRole("listitem");
    await expect.element(card).toHaveTextContent("Bookings page");
    await expect
      .element(card)
      .toHaveTextContent(`Cal.com · event type ${calcom.eventTypeId} · owner@cal.example`);
    await expect.element(card).toHaveTextContent("Connected");
  });
});
