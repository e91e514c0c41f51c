import pg from "pg";
import { connectPool } from "./connection.ts";
import type { Database } from "./database.ts";
import { takePreforked } from "./pglite-process.ts";

export async function openPostgres(url: string): Promise<Database> {
  // Not needed on PostgreSQL (start.mjs forks on a guess from the raw environment).
  takePreforked([])?.kill("SIGKILL");
  return connectPool(new pg.Pool({ connectionString: url, max: 10 }), () => `DATABASE_URL (${redact(url)})`);
}

export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
