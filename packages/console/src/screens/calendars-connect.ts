import { html } from "lit";
import type {
  CalendarProviderKind,
  ConsoleCalendarsScreenQuery,
  CreateCalendarConnectionInput,
  UpdateCalendarConnectionInput,
} from "../generated/graphql.ts";
import { describedBy, type FormErrors, fieldError, formMessage } from "../screen.ts";
import { calendarConnectionStatus } from "../status-words.ts";

export type Connection = ConsoleCalendarsScreenQuery["calendarConnections"][number];

export const PROVIDERS: Record<CalendarProviderKind, string> = {
  caldav: "CalDAV",
  calcom: "Cal.com",
  google: "Google Calendar",
  microsoft: "Microsoft 365",
};

/** Where the connection books: a CalDAV calendar's URL, a Cal.com event type, a Google or Microsoft calendar id. */
export function connectionDetail(connection: Connection) {
  if (connection.provider === "caldav")
    return html`<span class="url">${connection.url}</span> · ${connection.username}`;
  if (connection.provider === "calcom")
    return `event type ${connection.eventTypeId ?? connection.url} · ${connection.username}`;
  return `${connection.username} · calendar ${connection.url}`;
}

export function statusBadge(connection: Connection) {
  return connection.status === "broken"
    ? html`<span class="badge broken">${calendarConnectionStatus(connection.status)}</span>`
    : html`<span class="badge">${calendarConnectionStatus(connection.status)}</span>`;
}

/**
 * The ways to add a connection: a Google or Microsoft sign-in (`startOAuth` with the button's provider),
 * CalDAV credentials, a Cal.com API key. `errorsOf` gives each form its own messages.
 */
export function renderConnectForms(
  errorsOf: (form: "oauth" | "caldav" | "calcom") => FormErrors,
  actions: {
    startOAuth(event: SubmitEvent): void;
    addCaldav(event: SubmitEvent): void;
    addCalcom(event: SubmitEvent): void;
  },
) {
  const caldav = errorsOf("caldav");
  const calcom = errorsOf("calcom");
  const oauth = errorsOf("oauth");
  return html`<h2>Connect a calendar</h2>
      <div class="add">
        <form class="card" @submit=${actions.startOAuth} aria-labelledby="oauth-title">
          <h3 id="oauth-title">Google or Microsoft 365</h3>
          <p class="hint">You sign in with the provider and allow Voxgate to read free/busy time and write appointments.</p>
          <label for="oauth-name">Name</label>
          <input id="oauth-name" name="name" placeholder="Front desk" required aria-describedby=${describedBy(oauth, "name")} />
          ${fieldError(oauth, "name")}${formMessage(oauth)}
          <p class="row"><button class="primary" type="submit" value="google">Connect Google</button>
            <button class="primary" type="submit" value="microsoft">Connect Microsoft 365</button></p>
        </form>
        <form class="card" novalidate @submit=${actions.addCaldav} aria-labelledby="caldav-title">
          <h3 id="caldav-title">CalDAV</h3>
          <p class="hint">Nextcloud, Radicale, Fastmail, iCloud (with an app password): the calendar's own URL, not the server's.</p>
          <label for="caldav-name">Name</label>
          <input id="caldav-name" name="name" aria-describedby=${describedBy(caldav, "name")} />${fieldError(caldav, "name")}
          <label for="caldav-url">Calendar URL</label>
          <input id="caldav-url" name="url" type="url" placeholder="https://cloud.example.com/remote.php/dav/calendars/desk/appointments/"
            aria-describedby=${describedBy(caldav, "url")} />${fieldError(caldav, "url")}
          <label for="caldav-username">Username</label>
          <input id="caldav-username" name="username" autocomplete="off" aria-describedby=${describedBy(caldav, "username")} />${fieldError(caldav, "username")}
          <label for="caldav-password">Password</label>
          <input id="caldav-password" name="password" type="password" autocomplete="new-password" aria-describedby=${describedBy(caldav, "password")} />${fieldError(caldav, "password")}
          <label for="caldav-read">Further calendars to read for busy time (optional)</label>
          <textarea id="caldav-read" name="readUrls" rows="2" placeholder="One URL a line" aria-describedby=${describedBy(caldav, "readUrls")}></textarea>
          ${fieldError(caldav, "readUrls")}${formMessage(caldav)}
          <p><button class="primary" type="submit">Connect CalDAV calendar</button></p>
        </form>
        <form class="card" novalidate @submit=${actions.addCalcom} aria-labelledby="calcom-title">
          <h3 id="calcom-title">Cal.com</h3>
          <p class="hint">An API key from Cal.com's settings (Developer → API keys) and the event type appointments are booked as.</p>
          <label for="calcom-name">Name</label>
          <input id="calcom-name" name="name" aria-describedby=${describedBy(calcom, "name")} />${fieldError(calcom, "name")}
          <label for="calcom-key">API key</label>
          <input id="calcom-key" name="apiKey" type="password" autocomplete="off" aria-describedby=${describedBy(calcom, "apiKey")} />${fieldError(calcom, "apiKey")}
          <label for="calcom-event">Event type ID</label>
          <input id="calcom-event" name="eventTypeId" type="number" min="1" step="1" aria-describedby=${describedBy(calcom, "eventTypeId")} />${fieldError(calcom, "eventTypeId")}
          ${formMessage(calcom)}
          <p><button class="primary" type="submit">Connect Cal.com</button></p>
        </form>
      </div>`;
}

/**
 * How a connection is repaired (or edited): a Google or Microsoft one by signing in again (`startOAuth`
 * with its name; the form's `data-id` names the connection), a Cal.com one with a new API key, a CalDAV
 * one with its settings and a new password.
 */
export function renderRepairForm(
  connection: Connection,
  errors: FormErrors,
  actions: { startOAuth(event: SubmitEvent, name: string): void; repair(event: SubmitEvent): void },
) {
  const key = `repair-${connection.id}`;
  const id = (name: string) => `${key}-${name}`;
  if (connection.provider === "google" || connection.provider === "microsoft") {
    return html`<form class="repair" data-id=${connection.id} @submit=${(event: SubmitEvent) => actions.startOAuth(event, connection.name)}
        aria-label="Reconnect ${connection.name}">
        <p class="hint">Sign in to ${PROVIDERS[connection.provider]} again and allow access to the calendar.</p>
        <button class="primary" type="submit" value=${connection.provider}>Reconnect ${PROVIDERS[connection.provider]}</button>
        ${formMessage(errors)}
      </form>`;
  }
  if (connection.provider === "calcom") {
    return html`<form class="repair" novalidate @submit=${actions.repair} aria-label="Repair ${connection.name}">
        <label for=${id("apiKey")}>New Cal.com API key</label>
        <input id=${id("apiKey")} name="apiKey" type="password" autocomplete="off" required aria-describedby=${describedBy(errors, "apiKey")} />
        ${fieldError(errors, "apiKey")}
        ${formMessage(errors)}
        <p><button class="primary" type="submit">Save and check</button></p>
      </form>`;
  }
  return html`<form class="repair grid" novalidate @submit=${actions.repair} aria-label="Repair ${connection.name}">
      <div><label for=${id("name")}>Name</label>
        <input id=${id("name")} name="name" .value=${connection.name} aria-describedby=${describedBy(errors, "name")} />${fieldError(errors, "name")}</div>
      <div><label for=${id("url")}>Calendar URL</label>
        <input id=${id("url")} name="url" type="url" .value=${connection.url} aria-describedby=${describedBy(errors, "url")} />${fieldError(errors, "url")}</div>
      <div><label for=${id("username")}>Username</label>
        <input id=${id("username")} name="username" autocomplete="off" .value=${connection.username} aria-describedby=${describedBy(errors, "username")} />${fieldError(errors, "username")}</div>
      <div><label for=${id("password")}>New password</label>
        <input id=${id("password")} name="password" type="password" autocomplete="new-password" aria-describedby="${id("password-hint")}" />
        <span class="hint" id=${id("password-hint")}>Empty keeps the stored one.</span>${fieldError(errors, "password")}</div>
      <div style="grid-column: 1 / -1"><label for=${id("readUrls")}>Further calendars to read for busy time</label>
        <textarea id=${id("readUrls")} name="readUrls" rows="2" .value=${connection.readUrls.join("\n")} aria-describedby=${describedBy(errors, "readUrls")}></textarea>
        ${fieldError(errors, "readUrls")}</div>
      <div style="grid-column: 1 / -1">${formMessage(errors)}<p><button class="primary" type="submit">Save and check</button></p></div>
    </form>`;
}

export function caldavInput(data: FormData): CreateCalendarConnectionInput {
  return {
    name: String(data.get("name") ?? ""),
    provider: "caldav",
    url: String(data.get("url") ?? ""),
    readUrls: lines(data.get("readUrls")),
    username: String(data.get("username") ?? ""),
    password: String(data.get("password") ?? ""),
  };
}

export function calcomInput(data: FormData): CreateCalendarConnectionInput {
  const eventTypeId = String(data.get("eventTypeId") ?? "");
  return {
    name: String(data.get("name") ?? ""),
    provider: "calcom",
    apiKey: String(data.get("apiKey") ?? ""),
    // Empty is sent as missing, so the server names the field instead of GraphQL refusing NaN.
    eventTypeId: eventTypeId === "" ? null : Number(eventTypeId),
  };
}

/** A repair form's values as the API's input (Google and Microsoft are repaired by signing in again). */
export function repairInput(connection: Connection, data: FormData): UpdateCalendarConnectionInput {
  const text = (name: string) => String(data.get(name) ?? "");
  // A new API key for a connection whose key was revoked.
  if (connection.provider === "calcom") return { apiKey: text("apiKey") };
  return {
    name: text("name"),
    url: text("url"),
    readUrls: lines(data.get("readUrls")),
    username: text("username"),
    // Empty keeps the stored password.
    ...(text("password") ? { password: text("password") } : {}),
  };
}

function lines(value: FormDataEntryValue | null): string[] {
  return String(value ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}
