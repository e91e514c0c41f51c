import type { ServiceDeps } from "../../deps.ts";
import type { FieldErrors } from "../../errors.ts";
import type {
  AiModel,
  AiModelKind,
  SpeechProvider,
  SpeechProviderKind,
} from "../../generated/prisma/client.ts";
import type {
  KeyProvider,
  ProviderChoice,
  ProviderSelection,
  SynthesizerName,
  TranscriberName,
} from "../voice/index.ts";
import { deploymentConfigures, deploymentDefault, keyProviderOf } from "./catalogue.ts";
import type { ProviderKeysService } from "./provider-keys.service.ts";

/** A catalogue row as listed: where it can run, for the deployment and for the viewer's account. */
export type Listed<Row> = Row & {
  keyProvider: KeyProvider;
  /** The deployment's environment configures it. */
  configured: boolean;
  /** The viewer's account has its own key for it. */
  accountKey: boolean;
  /** What the deployment uses when an assistant selects nothing. */
  isDefault: boolean;
};

interface Catalogue {
  providers: Map<number, SpeechProvider>;
  models: Map<number, AiModel>;
}

/** The assistant fields that name catalogue rows, with the kind each must be. */
const SELECTION_FIELDS = [
  { field: "transcriberProviderId", words: "transcriber provider", table: "provider", kind: "transcriber" },
  { field: "synthesizerProviderId", words: "synthesizer provider", table: "provider", kind: "synthesizer" },
  { field: "llmModelId", words: "llm model", table: "model", kind: "llm" },
  { field: "multimodalModelId", words: "multimodal model", table: "model", kind: "multimodal" },
] as const;

export type CatalogueSelection = Partial<Record<(typeof SELECTION_FIELDS)[number]["field"], number | null>>;

/**
 * The deployment's catalogue of speech providers and models (docs/voice.md#providers-and-models):
 * fixed rows seeded by migrations, plus the deployment's configured models (OPENAI_MODEL,
 * OPENAI_REALTIME_MODEL) added when missing. The rows change only with a deployment, so they are read
 * once per process.
 */
export class ProvidersService implements ProviderSelection {
  private catalogue: Promise<Catalogue> | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { keys: ProviderKeysService },
  ) {}

  async speechProviders(accountId: number, kind?: SpeechProviderKind | null) {
    const { providers } = await this.load();
    return this.listed([...providers.values()], accountId, kind);
  }

  async models(accountId: number, kind?: AiModelKind | null) {
    const { models } = await this.load();
    return this.listed([...models.values()], accountId, kind);
  }

  /** Field messages for catalogue ids that name nothing, or a row of another kind. */
  async check(selection: CatalogueSelection): Promise<FieldErrors> {
    const catalogue = await this.load();
    const fields: FieldErrors = {};
    for (const { field, words, table, kind } of SELECTION_FIELDS) {
      const id = selection[field];
      if (!id) continue;
      const row = table === "provider" ? catalogue.providers.get(id) : catalogue.models.get(id);
      if (!row) fields[field] = [`The selected ${words} id is invalid.`];
      else if (row.kind !== kind) {
        const noun = table === "provider" ? "provider" : "model";
        fields[field] = [
          `The selected ${words} id names the ${row.kind} ${noun} ${row.name}, not ${kind === "llm" ? "an" : "a"} ${kind} ${noun}.`,
        ];
      }
    }
    return fields;
  }

  /** The name the chat API takes for a catalogue chat model. */
  async chatModelName(id: number): Promise<string | null> {
    const model = (await this.load()).models.get(id);
    return model?.kind === "llm" ? model.name : null;
  }

  /** The account's own OpenAI key, for its chat replies on the deployment's chat endpoint. */
  async chatKeyFor(accountId: number): Promise<string | null> {
    return (await this.parts.keys.keysFor(accountId)).openai ?? null;
  }

  /**
   * What a call's assistant selected, where the deployment or the account's own key configures it;
   * a selection that neither configures falls back to the deployment's default (with a warning).
   */
  async choiceFor(
    accountId: number,
    assistant: {
      transcriberProviderId: number | null;
      synthesizerProviderId: number | null;
      multimodalModelId: number | null;
    },
  ): Promise<ProviderChoice> {
    const [catalogue, keys] = await Promise.all([this.load(), this.parts.keys.keysFor(accountId)]);
    const usable = <Row extends SpeechProvider | AiModel>(row: Row | undefined, kind: Row["kind"]) => {
      if (!row || row.kind !== kind) return null;
      if (deploymentConfigures(this.deps.config, row) || keys[keyProviderOf(row)]) return row;
      this.deps.logger.warn(
        "the assistant's selected provider is not configured; the deployment's default is used",
        {
          accountId,
          kind,
          provider: row.name,
        },
      );
      return null;
    };
    const pick = (id: number | null, kind: SpeechProviderKind) =>
      id ? usable(catalogue.providers.get(id), kind) : null;
    const transcriber = pick(assistant.transcriberProviderId, "transcriber");
    const synthesizer = pick(assistant.synthesizerProviderId, "synthesizer");
    const model = assistant.multimodalModelId
      ? usable(catalogue.models.get(assistant.multimodalModelId), "multimodal")
      : null;
    return {
      transcriber: (transcriber?.name as TranscriberName | undefined) ?? null,
      synthesizer: (synthesizer?.name as SynthesizerName | undefined) ?? null,
      realtimeModel: model?.name ?? null,
      keys,
    };
  }

  private async listed<Row extends SpeechProvider | AiModel>(
    rows: Row[],
    accountId: number,
    kind: Row["kind"] | null | undefined,
  ): Promise<Listed<Row>[]> {
    const keys = await this.parts.keys.keysFor(accountId);
    return rows
      .filter((row) => !kind || row.kind === kind)
      .sort((a, b) => a.id - b.id)
      .map((row) => ({
        ...row,
        keyProvider: keyProviderOf(row),
        configured: deploymentConfigures(this.deps.config, row),
        accountKey: keys[keyProviderOf(row)] !== undefined,
        isDefault: deploymentDefault(this.deps.config, row),
      }));
  }

  private load(): Promise<Catalogue> {
    this.catalogue ??= this.read().catch((error: unknown) => {
      this.catalogue = null;
      throw error;
    });
    return this.catalogue;
  }

  private async read(): Promise<Catalogue> {
    const prisma = this.deps.db.prisma;
    const configured: { kind: AiModelKind; name: string }[] = [
      { kind: "llm", name: this.deps.config.openai.model },
      { kind: "multimodal", name: this.deps.config.voice.realtime.model },
    ];
    for (const model of configured) {
      // Another instance may add the same model at once: the unique (kind, name) keeps one row.
      await prisma.aiModel.createMany({
        data: [{ ...model, label: model.name }],
        skipDuplicates: true,
      });
    }
    const [providers, models] = await Promise.all([
      prisma.speechProvider.findMany(),
      prisma.aiModel.findMany(),
    ]);
    return {
      providers: new Map(providers.map((row) => [row.id, row])),
      models: new Map(models.map((row) => [row.id, row])),
    };
  }
}
