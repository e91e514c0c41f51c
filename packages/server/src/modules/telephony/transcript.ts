import type { TranscriptLine } from "./provider.ts";

const LABELS = { assistant: "Assistant", customer: "Customer", system: "System" } as const;

/** One line of a call's transcript as stored and shown: `Assistant: …` or `Customer: …`. */
export function transcriptLineText(line: TranscriptLine): string {
  return `${LABELS[line.speaker]}: ${line.text.replace(/\s+/g, " ").trim()}`;
}

/** The lines of a stored transcript (lines in another shape, and `System:` markers, are skipped). */
export function parseTranscript(transcript: string): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  for (const row of transcript.split("\n")) {
    const match = /^(Assistant|Customer): (.*)$/.exec(row);
    if (match) lines.push({ speaker: match[1] === "Assistant" ? "assistant" : "customer", text: match[2]! });
  }
  return lines;
}
