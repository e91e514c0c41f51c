import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { type FieldErrors, NotFoundError, ValidationError } from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import type { Assistant, AssistantMode, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { visibleVoices } from "../voices/voices.service.ts";
import {
  ASSISTANT_DEFAULTS,
  ASSISTANT_STATUSES,
  ASSISTANT_TYPES,
  type AssistantSettings,
  CreateAssistantInput,
  UpdateAssistantInput,
} from "./assistant-rules.ts";
import type { ReplySettingsCache } from "./reply-settings.ts";

/** Where the account's webhook signing secret comes from (the webhooks module). */
export interface FirstWebhookSecret {
  /** A new secret if the account has none yet (returned this once), else null. */
  issueFirstSecret(accountId: number): Promise<string | null>;
}

/** The provider and model catalogue (the providers module): which ids name a row of the right kind. */
export interface CatalogueReferences {
  check(selection: {
    transcriberProviderId?: number | null;
    synthesizerProviderId?: number | null;
    llmModelId?: number | null;
    multimodalModelId?: number | null;
  }): Promise<FieldErrors>;
}

/** The legacy API lists ten assistants per page unless asked otherwise. */
export const ASSISTANTS_PER_PAGE = 10;

const AssistantFilter = z.object({
  type: z
    .enum(ASSISTANT_TYPES, { error: `The type field must be one of ${ASSISTANT_TYPES.join(", ")}.` })
    .nullish(),
  status: z
    .enum(ASSISTANT_STATUSES, { error: `The status field must be one of ${ASSISTANT_STATUSES.join(", ")}.` })
    .nullish(),
  search: z.string().trim().max(255, "The search field must not be greater than 255 characters.").nullish(),
});

export interface AssistantFilterRequest {
  type?: unknown;
  status?: unknown;
  search?: unknown;
}

/** Assistants of an account that are not deleted. */
const live = (accountId: number) => ({ accountId, deletedAt: null }) satisfies Prisma.AssistantWhereInput;

export class AssistantsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      replySettings: ReplySettingsCache;
      webhookSecrets: FirstWebhookSecret;
      catalogue: CatalogueReferences;
      events: EventSink;
    },
  ) {}

  list(accountId: number, page: PageRequest, filter: AssistantFilterRequest = {}) {
    const { type, status, search } = parseInput(AssistantFilter, filter);
    const where: Prisma.AssistantWhereInput = {
      ...live(accountId),
      ...(type ? { type } : {}),
      ...(status ? { status } : {}),
      ...(search ? { name: { contains: search, mode: "insensitive" } } : {}),
    };
    const prisma = this.deps.db.prisma;
    return paginate(page, ASSISTANTS_PER_PAGE, {
      count: () => prisma.assistant.count({ where }),
      items: (skip, take) => prisma.assistant.findMany({ where, orderBy: { id: "asc" }, skip, take }),
    });
  }

  async get(accountId: number, id: number) {
    const assistant = await this.deps.db.prisma.assistant.findFirst({ where: { ...live(accountId), id } });
    if (!assistant) throw new NotFoundError("Assistant");
    return assistant;
  }

  async create(owner: { accountId: number; userId: number }, input: Record<string, unknown>) {
    const settings = parseInput(CreateAssistantInput, input);
    await this.checkReferences(owner.accountId, settings, settings.mode ?? ASSISTANT_DEFAULTS.mode);
    const assistant = await this.deps.db.prisma.assistant.create({
      data: {
        ...toData({ ...structuredClone(ASSISTANT_DEFAULTS), ...settings } as AssistantSettings),
        name: settings.name,
        accountId: owner.accountId,
        userId: owner.userId,
        ...appointmentTypeLinks(settings.appointmentTypeIds),
      },
    });
    this.deps.logger.info("assistant created", { accountId: owner.accountId, assistantId: assistant.id });
    return this.withFirstSecret(assistant);
  }

  /**
   * Changes the given fields only; null clears a nullable one. Audited (assistant.updated) with the
   * names of the fields given, not their values (prompts are long, URLs may carry credentials).
   */
  async update(accountId: number, id: number, input: Record<string, unknown>, actor: Actor = systemActor) {
    const current = await this.get(accountId, id);
    const settings = parseInput(UpdateAssistantInput, input);
    const voiceId = settings.voiceId === undefined ? current.voiceId : settings.voiceId;
    await this.checkReferences(accountId, { ...settings, voiceId }, settings.mode ?? current.mode);
    const updated = await this.deps.db.prisma.$transaction(async (tx) => {
      const row = await tx.assistant.update({
        where: { id: current.id },
        data: { ...toData(settings), ...appointmentTypeLinks(settings.appointmentTypeIds, true) },
      });
      await this.parts.events.emit(tx, {
        type: "assistant.updated",
        accountId,
        actor,
        target: { type: "assistant", id: current.id },
        details: {
          fields: Object.keys(settings)
            .filter((key) => settings[key as keyof typeof settings] !== undefined)
            .sort(),
        },
      });
      return row;
    });
    this.parts.replySettings.changed(current.id);
    return this.withFirstSecret(updated);
  }

  /**
   * The account's first webhook signing secret, made when an assistant first turns webhooks on and
   * returned in that answer only: the owner can verify from the first delivery.
   */
  private async withFirstSecret(
    assistant: Assistant,
  ): Promise<Assistant & { webhookSigningSecret?: string }> {
    if (!assistant.isWebhookActive || !assistant.webhookUrl) return assistant;
    const secret = await this.parts.webhookSecrets.issueFirstSecret(assistant.accountId);
    return secret ? { ...assistant, webhookSigningSecret: secret } : assistant;
  }

  /** Soft delete: the assistant disappears from lists, its calls keep their history. */
  async delete(accountId: number, id: number, now = new Date()) {
    const { count } = await this.deps.db.prisma.assistant.updateMany({
      where: { ...live(accountId), id },
      data: { deletedAt: now, phoneNumberId: null },
    });
    if (count === 0) throw new NotFoundError("Assistant");
    this.parts.replySettings.changed(id);
    this.deps.logger.info("assistant deleted", { accountId, assistantId: id });
  }

  /** Ids pointing at other rows must name rows the account may use; each problem is a field message. */
  private async checkReferences(accountId: number, settings: AssistantSettings, mode: AssistantMode) {
    const prisma = this.deps.db.prisma;
    const fields: FieldErrors = {};
    if (settings.voiceId) {
      const voice = await prisma.voice.findFirst({
        where: { id: settings.voiceId, ...visibleVoices(accountId) },
      });
      if (!voice) fields.voiceId = ["The selected voice id is invalid."];
      else if (!voice.supportedModes.includes(mode)) {
        fields.voiceId = [`The selected voice does not support the ${mode} mode.`];
      }
    }
    if (settings.phoneNumberId) {
      const held = await prisma.phoneNumber.count({
        where: { id: settings.phoneNumberId, accountId, releasedAt: null },
      });
      if (held === 0) fields.phoneNumberId = ["The selected phone number id is invalid."];
    }
    if (settings.knowledgebaseId) {
      const owned = await prisma.knowledgebase.count({ where: { id: settings.knowledgebaseId, accountId } });
      if (owned === 0) fields.knowledgebaseId = ["The selected knowledgebase id is invalid."];
    }
    if (settings.appointmentTypeIds?.length) {
      const owned = await prisma.appointmentType.count({
        where: { id: { in: settings.appointmentTypeIds }, accountId },
      });
      if (owned !== settings.appointmentTypeIds.length)
        fields.appointmentTypeIds = ["The selected appointment type ids are invalid."];
    }
    if (settings.languageId) {
      const exists = await prisma.language.count({ where: { id: settings.languageId } });
      if (exists === 0) fields.languageId = ["The selected language id is invalid."];
    }
    Object.assign(fields, await this.parts.catalogue.check(settings));
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  }
}

/** Validated settings as Prisma data: JSON settings as JSON values, decimals as exact strings. */
function toData(settings: AssistantSettings) {
  const {
    variables,
    postCallSchema,
    fillerConfig,
    tools,
    widgetSettings,
    name,
    appointmentTypeIds: _links,
    ...scalars
  } = settings;
  return {
    ...scalars,
    ...(name !== undefined ? { name } : {}),
    ...(variables !== undefined ? { variables } : {}),
    ...(postCallSchema !== undefined ? { postCallSchema } : {}),
    ...(fillerConfig !== undefined ? { fillerConfig } : {}),
    ...(tools !== undefined ? { tools: tools as Prisma.InputJsonArray } : {}),
    ...(widgetSettings !== undefined ? { widgetSettings } : {}),
  };
}

/** The appointment types an assistant books, as a nested write replacing the links (when given). */
function appointmentTypeLinks(ids: number[] | undefined, replace = false) {
  if (ids === undefined) return {};
  return {
    appointmentTypeLinks: {
      ...(replace ? { deleteMany: {} } : {}),
      create: ids.map((appointmentTypeId) => ({ appointmentTypeId })),
    },
  };
}
