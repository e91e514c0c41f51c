import type { Tokenizer } from "../../../tokenizer.ts";

export interface Chunk {
  content: string;
  tokenCount: number;
  source: string | null;
}

export type { Tokenizer };

export interface ChunkingOptions {
  maxTokens: number;
  overlapTokens: number;
}

export declare const DEFAULT_CHUNKING: Readonly<ChunkingOptions>;
export declare const SEGMENT_CHARS: number;
export declare function chunkSteps(
  section: { source: string | null; text: string },
  options: ChunkingOptions,
  tokenizer: Tokenizer,
): Generator<Chunk | undefined>;
