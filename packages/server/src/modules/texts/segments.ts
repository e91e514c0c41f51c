/**
 * How many SMS segments a text takes, as carriers count them (3GPP TS 23.038 and 23.040): a text
 * that the GSM 7-bit default alphabet can spell goes as GSM-7, 160 septets in one segment or 153
 * per segment once it is split (each part carries a 7-octet concatenation header); the extension
 * table's characters (^ { } \ [ ] ~ | € and form feed) take two septets (an escape and the
 * character), and a pair is never split across segments. Any other character makes the whole text
 * UCS-2 (UTF-16 code units): 70 in one segment, 67 per segment once split, and a surrogate pair
 * (an emoji, say) is never split.
 */

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  segments: number;
}

const GSM7_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
const GSM7_EXTENSION = new Set("^{}\\[]~|€\f");

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  "GSM-7": { single: 160, part: 153 },
  "UCS-2": { single: 70, part: 67 },
};

/** Counts the segments `text` takes (0 for the empty text). */
export function countSegments(text: string): SegmentCount {
  const characters = [...text];
  const gsm = characters.every((character) => GSM7_BASIC.has(character) || GSM7_EXTENSION.has(character));
  const encoding: SmsEncoding = gsm ? "GSM-7" : "UCS-2";
  // Each character's width in units: what may not be split across segments.
  const widths = characters.map((character) =>
    gsm ? (GSM7_EXTENSION.has(character) ? 2 : 1) : character.length,
  );
  const units = widths.reduce((sum, width) => sum + width, 0);
  const limit = LIMITS[encoding];
  if (units === 0) return { encoding, units, segments: 0 };
  if (units <= limit.single) return { encoding, units, segments: 1 };
  let segments = 1;
  let used = 0;
  for (const width of widths) {
    if (used + width > limit.part) {
      segments += 1;
      used = 0;
    }
    used += width;
  }
  return { encoding, units, segments };
}
