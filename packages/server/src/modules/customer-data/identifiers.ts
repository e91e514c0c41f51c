import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { ValidationError } from "../../errors.ts";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { lazyRequire } from "../../lazy-require.ts";

const libphonenumber = lazyRequire<typeof import("libphonenumber-js/max")>("libphonenumber-js/max");

export const IDENTIFIER_KINDS = ["phone", "email", "customer_id"] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** One customer as the account names them, normalised so that equal people are equal strings. */
export interface CustomerIdentifier {
  kind: IdentifierKind;
  value: string;
}

/** What callers send: exactly one of the three, and for a national phone number its country. */
export interface CustomerIdentifierRequest {
  phoneNumber?: unknown;
  email?: unknown;
  customerId?: unknown;
  country?: unknown;
}

const Request = z.object({
  phoneNumber: z.string({ error: "The phone number field must be a string." }).max(64).nullish(),
  email: z.string({ error: "The email field must be a string." }).max(254).nullish(),
  customerId: z.string({ error: "The customer id field must be a string." }).max(255).nullish(),
  country: z
    .string({ error: "The country field must be a string." })
    .regex(/^[A-Za-z]{2}$/, "The country field must be a two-letter ISO 3166 code (e.g. US).")
    .nullish(),
});

/**
 * A phone number in any way people write it, as E.164: spaces, dashes, dots and brackets are
 * ignored, a leading 00 is the international prefix, and a national number is read in `country`
 * (the account's default country). Null when it is not a valid number.
 */
export function normalisePhoneNumber(raw: string, country: string): string | null {
  let value = raw.trim().replace(/[\s\-.()/]/g, "");
  if (value.startsWith("00")) value = `+${value.slice(2)}`;
  if (!/^\+?\d{3,20}$/.test(value)) return null;
  const parsed = libphonenumber().parsePhoneNumberFromString(
    value,
    value.startsWith("+") ? undefined : (country.toUpperCase() as never),
  );
  if (!parsed?.isValid()) return null;
  return parsed.number;
}

/**
 * The digit strings a number may be written as once punctuation is dropped: international
 * (14155550123), national (4155550123) and national with a trunk 0 (02079460018).
 */
export function phoneDigitForms(e164: string): string[] {
  const parsed = libphonenumber().parsePhoneNumberFromString(e164);
  const national = parsed ? String(parsed.nationalNumber) : e164.slice(1);
  return [...new Set([e164.slice(1), national, `0${national}`])];
}

/**
 * Reads exactly one identifier. `defaultCountry` is used for a national phone number when the
 * request names no country.
 */
export function parseIdentifier(
  request: CustomerIdentifierRequest,
  defaultCountry: string,
): CustomerIdentifier {
  const result = Request.safeParse(request);
  if (!result.success) throw ValidationError.fromZod(result.error);
  const input = result.data;
  const given = (["phoneNumber", "email", "customerId"] as const).filter((key) => input[key]?.trim());
  if (given.length !== 1) {
    throw ValidationError.single(
      "input",
      "Give exactly one of phone number, email or customer id to name the customer.",
    );
  }
  if (input.phoneNumber?.trim()) {
    const e164 = normalisePhoneNumber(input.phoneNumber, input.country ?? defaultCountry);
    if (!e164) {
      throw ValidationError.single(
        "phoneNumber",
        "The phone number field must be a valid phone number (E.164, or national in the given country).",
      );
    }
    return { kind: "phone", value: e164 };
  }
  if (input.email?.trim()) {
    const email = z.email().safeParse(input.email.trim());
    if (!email.success)
      throw ValidationError.single("email", "The email field must be a valid email address.");
    return { kind: "email", value: email.data.toLowerCase() };
  }
  return { kind: "customer_id", value: input.customerId!.trim() };
}

/**
 * The country a national number of the account is read in: the country of its oldest phone
 * number, else US (the spec's examples are North American).
 */
export async function defaultCountryOf(prisma: PrismaClient | Prisma.TransactionClient, accountId: number) {
  const numbers = await prisma.phoneNumber.findMany({
    where: { accountId },
    orderBy: { id: "asc" },
    select: { countryCode: true },
    take: 5,
  });
  return (
    numbers.find((row) => /^[A-Z]{2}$/.test(row.countryCode) && row.countryCode !== "ZZ")?.countryCode ?? "US"
  );
}

/** The account's tombstone salt, made on first use (concurrent first uses agree on one). */
export async function saltOf(
  prisma: PrismaClient | Prisma.TransactionClient,
  accountId: number,
): Promise<string> {
  await prisma.$executeRaw`
    INSERT INTO "customer_data_salts" ("accountId", "salt") VALUES (${accountId}::integer, ${randomBytes(32).toString("base64url")})
    ON CONFLICT ("accountId") DO NOTHING`;
  const row = await prisma.customerDataSalt.findUniqueOrThrow({ where: { accountId } });
  return row.salt;
}

/** SHA-256 over the account's salt, the identifier's kind and its normalised value, hex. */
export function identifierHash(salt: string, identifier: CustomerIdentifier): string {
  return createHash("sha256")
    .update(`${salt}\u0000${identifier.kind}\u0000${identifier.value}`)
    .digest("hex");
}
