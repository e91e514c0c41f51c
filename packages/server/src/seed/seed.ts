import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../db/client.ts";
import type { Services } from "../services.ts";
import { LANGUAGES, PUBLIC_VOICES } from "./catalog.ts";

export const DEMO_EMAIL = "demo@voxgate.local";

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
}

/** Adds the languages and public voices that are missing; safe to run on every start. */
export async function seedCatalog(prisma: PrismaClient): Promise<void> {
  // Every start runs this: read first and write only what is missing (usually nothing), rather than
  // one upsert per language. skipDuplicates keeps two instances starting together from failing.
  let languages = await prisma.language.findMany();
  const known = new Set(languages.map((language) => language.code));
  const newLanguages = LANGUAGES.filter((language) => !known.has(language.code));
  if (newLanguages.length > 0) {
    await prisma.language.createMany({ data: [...newLanguages], skipDuplicates: true });
    languages = await prisma.language.findMany();
  }
  const languageIds = new Map(languages.map((language) => [language.code, language.id]));
  const existing = new Set(
    (await prisma.voice.findMany({ where: { accountId: null }, select: { name: true } })).map(
      (voice) => voice.name,
    ),
  );
  const missing = PUBLIC_VOICES.filter((voice) => !existing.has(voice.name));
  if (missing.length === 0) return;
  await prisma.voice.createMany({
    data: missing.map((voice) => ({
      name: voice.name,
      gender: voice.gender,
      languageId: languageIds.get(voice.language) ?? null,
      supportedModes: voice.modes,
    })),
  });
}

/**
 * Creates the demo account (with a demo assistant and a dedicated number) the first time, and
 * returns its credentials so that they can be shown once. Later starts return null.
 */
export async function seedDemo(prisma: PrismaClient, services: Services): Promise<DemoCredentials | null> {
  if (await prisma.user.findUnique({ where: { email: DEMO_EMAIL } })) return null;
  const password = randomBytes(12).toString("base64url");
  // The first account of a fresh installation administers the platform (the console's admin section).
  const operator = (await prisma.account.count()) === 0;
  let created: Awaited<ReturnType<Services["accounts"]["create"]>>;
  try {
    created = await services.accounts.create({
      email: DEMO_EMAIL,
      password,
      name: "Demo User",
      accountName: "Voxgate Demo",
      balance: "10.00",
      timezone: "UTC",
      operator,
    });
  } catch (error) {
    // Another instance starting at the same moment seeded it first.
    if (await prisma.user.findUnique({ where: { email: DEMO_EMAIL } })) return null;
    throw error;
  }
  const { account, user } = created;
  const billingPeriodStart = new Date();
  const billingPeriodEnd = new Date(billingPeriodStart);
  billingPeriodEnd.setUTCMonth(billingPeriodEnd.getUTCMonth() + 1);
  const phoneNumber = await prisma.phoneNumber.create({
    data: {
      accountId: account.id,
      phoneNumber: "+14155550123",
      countryCode: "US",
      kind: "normal",
      label: "Demo line",
      region: "California",
      smsCapable: true,
      subscriptionStatus: "active",
      billingPeriodStart,
      billingPeriodEnd,
      providerName: "embedded",
      providerRef: "embedded-demo-1",
    },
  });
  const voice = await prisma.voice.findFirst({ where: { accountId: null, name: "Ava" } });
  const english = await prisma.language.findUnique({ where: { code: "en-US" } });
  await prisma.assistant.create({
    data: {
      accountId: account.id,
      userId: user.id,
      name: "Ava — Voxgate demo",
      type: "inbound",
      phoneNumberId: phoneNumber.id,
      voiceId: voice?.id ?? null,
      languageId: english?.id ?? null,
      language: "en-US",
      initialMessage: "Hi! I'm Ava, the Voxgate demo assistant. How can I help?",
      systemPrompt:
        "You are Ava, a friendly assistant for {{company}}. Answer briefly and ask one question at a time.",
      variables: { company: "Voxgate" },
    },
  });
  const { token } = await services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "Demo key" },
  );
  return { email: DEMO_EMAIL, password, apiKey: token };
}
