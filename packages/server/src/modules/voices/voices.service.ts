import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import type { AssistantMode } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";

export const ASSISTANT_MODES = ["pipeline", "multimodal", "dualplex"] as const;

const VoiceFilter = z.object({
  mode: z
    .enum(ASSISTANT_MODES, { error: "The selected mode is invalid (pipeline, multimodal or dualplex)." })
    .nullish(),
  languageId: z
    .number({ error: "The language id field must be an integer." })
    .int("The language id field must be an integer.")
    .positive("The selected language id is invalid.")
    .nullish(),
});

/** Voices visible to an account: the public catalogue and its own. */
export const visibleVoices = (accountId: number) => ({ OR: [{ accountId: null }, { accountId }] });

export class VoicesService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Public voices and the account's own, optionally those supporting `mode` and speaking `languageId`. */
  async list(accountId: number, filter: { mode?: unknown; languageId?: unknown } = {}) {
    const { mode, languageId } = parseInput(VoiceFilter, filter);
    if (languageId) {
      const language = await this.deps.db.prisma.language.findUnique({ where: { id: languageId } });
      if (!language) throw ValidationError.single("languageId", "The selected language id is invalid.");
    }
    return this.deps.db.prisma.voice.findMany({
      where: {
        ...visibleVoices(accountId),
        ...(mode ? { supportedModes: { has: mode as AssistantMode } } : {}),
        ...(languageId ? { languageId } : {}),
      },
      orderBy: [{ accountId: { sort: "asc", nulls: "first" } }, { name: "asc" }, { id: "asc" }],
    });
  }

  languages() {
    return this.deps.db.prisma.language.findMany({ orderBy: { id: "asc" } });
  }

  /** A voice the account may use, or null. */
  findUsable(accountId: number, id: number) {
    return this.deps.db.prisma.voice.findFirst({ where: { id, ...visibleVoices(accountId) } });
  }
}
