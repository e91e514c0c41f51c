/**
 * A real CalDAV server (Radicale, Debian package `radicale`) for calendar tests: a fresh, throw-away
 * server on a free 127.0.0.1 port with htpasswd users, started per test file. Installed in CI by
 * .ci/install-services.sh; where it is missing, the CalDAV tests are skipped with a warning (and the
 * run fails in CI, see vitest.config.ts).
 *
 * Node builtins only, like services.ts.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { getFreePort } from "./services.ts";

const START_TIMEOUT_MS = 20_000;

export function findRadicale(): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter), "/usr/bin"]) {
    if (!dir) continue;
    const candidate = join(dir, "radicale");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

export interface RunningRadicale {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Creates a calendar collection owned by `user` and returns its URL (with a trailing slash). */
  makeCalendar(user: string, name: string): Promise<string>;
  /** Stores a calendar object (a VCALENDAR text) directly, as another client would. */
  putObject(calendarUrl: string, name: string, ics: string, user: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts Radicale with the given users (name → password), each owning only their own calendars. */
export async function startRadicale(users: Record<string, string>): Promise<RunningRadicale> {
  const binary = findRadicale();
  if (!binary) throw new Error("radicale is not installed; run .ci/install-services.sh");
  const dir = mkdtempSync(join(tmpdir(), "voxgate-radicale-"));
  const port = await getFreePort();
  writeFileSync(
    join(dir, "users"),
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}`)
      .join("\n"),
  );
  writeFileSync(
    join(dir, "config"),
    [
      "[server]",
      `hosts = 127.0.0.1:${port}`,
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${join(dir, "users")}`,
      "htpasswd_encryption = plain",
      // Wrong passwords are answered at once (the default waits a second per refusal).
      "delay = 0",
      "[rights]",
      "type = owner_only",
      "[storage]",
      `filesystem_folder = ${join(dir, "collections")}`,
      "[logging]",
      "level = warning",
    ].join("\n"),
  );
  const child = spawn(binary, ["--config", join(dir, "config")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-10_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", kill);

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      kill();
      throw new Error(`radicale did not start on port ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const base = `http://127.0.0.1:${port}`;
  const auth = (user: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${users[user]}`).toString("base64")}`,
  });
  return {
    url: base,
    async makeCalendar(user, name) {
      const url = `${base}/${user}/${name}/`;
      const response = await fetch(url, { method: "MKCALENDAR", headers: auth(user) });
      if (response.status !== 201)
        throw new Error(`MKCALENDAR ${url}: ${response.status} ${await response.text()}`);
      return url;
    },
    async putObject(calendarUrl, name, ics, user) {
      const response = await fetch(`${calendarUrl}${name}`, {
        method: "PUT",
        headers: { ...auth(user), "content-type": "text/calendar; charset=utf-8" },
        body: ics,
      });
      if (response.status !== 201 && response.status !== 204) {
        throw new Error(`PUT ${name}: ${response.status} ${await response.text()}`);
      }
    },
    async stop() {
      process.removeListener("exit", kill);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      kill();
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
