import { describe, expect, it } from "vitest";
import { DatabaseStoppedError } from "./client.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";

/** A pg error as node-postgres builds it from the server's ErrorResponse. */
const serverError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: "FATAL" });

describe("isDatabaseUnavailable", () => {
  it("recognises an unreachable or restarting database however it is wrapped", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
      syscall: "connect",
      errno: -111,
    });
    const cases: unknown[] = [
      refused,
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      serverError("57P01", "terminating connection due to administrator command"),
      serverError("57P03", "the database system is starting up"),
      serverError("08006", "connection failure"),
      // Prisma's known request error from its pg adapter, with the adapter's cause kept in `meta`.
      Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
        name: "PrismaClientKnownRequestError",
        code: "P1001",
      }),
      Object.assign(new Error("Raw query failed. Code: `57P01`."), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", originalCode: "57P01" } } },
      }),
      Object.assign(new Error("Server has closed the connection."), {
        meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
      }),
      new Error("Invalid `prisma.apiKey.findUnique()` invocation: Connection terminated unexpectedly"),
      new Error("wrapped", { cause: refused }),
      new AggregateError([refused], "connect failed"),
      new DatabaseStoppedError(new Error("its process exited with signal SIGKILL")),
    ];
    expect(cases.map(isDatabaseUnavailable)).toEqual(cases.map(() => true));
  });

  it("leaves refused data and wrong queries to be errors of their own", () => {
    const cases: unknown[] = [
      serverError("23505", "duplicate key value violates unique constraint"),
      Object.assign(new Error("Unique constraint failed"), { code: "P2002" }),
      Object.assign(new Error("Raw query failed. Code: `42P01`."), {
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "postgres", originalCode: "42P01" } } },
      }),
      new Error("Connection terminated"),
      new TypeError("Cannot read properties of undefined"),
      "a string",
      null,
    ];
    expect(cases.map(isDatabaseUnavailable)).toEqual(cases.map(() => false));
  });
});
