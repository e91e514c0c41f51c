import type { AssistantMode } from "../generated/prisma/client.ts";

/** Languages assistants and voices can use (BCP 47 codes). */
export const LANGUAGES: readonly { code: string; name: string }[] = [
  { code: "en-US", name: "English (United States)" },
  { code: "en-GB", name: "English (United Kingdom)" },
  { code: "es-ES", name: "Spanish (Spain)" },
  { code: "es-MX", name: "Spanish (Mexico)" },
  { code: "fr-FR", name: "French (France)" },
  { code: "de-DE", name: "German (Germany)" },
  { code: "it-IT", name: "Italian (Italy)" },
  { code: "pt-BR", name: "Portuguese (Brazil)" },
  { code: "nl-NL", name: "Dutch (Netherlands)" },
  { code: "hi-IN", name: "Hindi (India)" },
  { code: "ja-JP", name: "Japanese (Japan)" },
];

const ALL: AssistantMode[] = ["pipeline", "multimodal", "dualplex"];
const PIPELINE: AssistantMode[] = ["pipeline"];
const REALTIME: AssistantMode[] = ["multimodal", "dualplex"];

/** The public voice catalogue every account can use. */
export const PUBLIC_VOICES: readonly {
  name: string;
  language: string;
  gender: string;
  modes: AssistantMode[];
}[] = [
  { name: "Ava", language: "en-US", gender: "female", modes: ALL },
  { name: "Noah", language: "en-US", gender: "male", modes: ALL },
  { name: "Maya", language: "en-US", gender: "female", modes: PIPELINE },
  { name: "Oliver", language: "en-GB", gender: "male", modes: PIPELINE },
  { name: "Amelia", language: "en-GB", gender: "female", modes: REALTIME },
  { name: "Lucía", language: "es-ES", gender: "female", modes: PIPELINE },
  { name: "Mateo", language: "es-MX", gender: "male", modes: ALL },
  { name: "Camille", language: "fr-FR", gender: "female", modes: ALL },
  { name: "Lukas", language: "de-DE", gender: "male", modes: PIPELINE },
  { name: "Giulia", language: "it-IT", gender: "female", modes: PIPELINE },
  { name: "Rafael", language: "pt-BR", gender: "male", modes: REALTIME },
  { name: "Sanne", language: "nl-NL", gender: "female", modes: PIPELINE },
  { name: "Aarav", language: "hi-IN", gender: "male", modes: PIPELINE },
  { name: "Yui", language: "ja-JP", gender: "female", modes: REALTIME },
];
