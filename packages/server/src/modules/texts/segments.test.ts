import { describe, expect, it } from "vitest";
import { countSegments } from "./segments.ts";

describe("SMS segment counting", () => {
  it("fits 160 GSM-7 characters in one segment and splits the 161st into two of 153", () => {
    expect(countSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(countSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
    expect(countSegments("a".repeat(306)).segments).toBe(2);
    expect(countSegments("a".repeat(307)).segments).toBe(3);
  });

  it("spells the whole basic alphabet, accents and Greek capitals included, as GSM-7", () => {
    const basic = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà";
    expect(countSegments(basic)).toMatchObject({ encoding: "GSM-7", units: [...basic].length });
  });

  it("counts the extension table's characters as two septets", () => {
    expect(countSegments("^{}\\[]~|€\f")).toEqual({ encoding: "GSM-7", units: 20, segments: 1 });
    expect(countSegments("€".repeat(80)).segments).toBe(1);
    expect(countSegments(`${"€".repeat(80)}a`)).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
  });

  it("never splits an escape pair: one that would straddle a boundary starts the next segment", () => {
    // 152 septets then a two-septet €: 154 > 153, so € opens segment 2 (1 septet of segment 1 unused).
    const text = `${"a".repeat(152)}€${"a".repeat(152)}`;
    expect(countSegments(text)).toEqual({ encoding: "GSM-7", units: 306, segments: 3 });
    // Without the pairing rule 306 septets would fit in two segments.
    expect(countSegments("a".repeat(306)).segments).toBe(2);
  });

  it("sends a text with any other character as UCS-2: 70 in one segment, 67 per part", () => {
    expect(countSegments("ç")).toEqual({ encoding: "UCS-2", units: 1, segments: 1 });
    expect(countSegments(`${"a".repeat(69)}ç`)).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    expect(countSegments(`${"a".repeat(70)}ç`)).toEqual({ encoding: "UCS-2", units: 71, segments: 2 });
    expect(countSegments("ж".repeat(134)).segments).toBe(2);
    expect(countSegments("ж".repeat(135)).segments).toBe(3);
  });

  it("counts an emoji as two UTF-16 units and never splits its surrogate pair", () => {
    expect(countSegments("😀".repeat(35))).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    // 66 units then an emoji: 68 > 67, so the pair opens segment 2 (1 unit of segment 1 unused).
    const text = `${"ж".repeat(66)}😀${"ж".repeat(66)}`;
    expect(countSegments(text)).toEqual({ encoding: "UCS-2", units: 134, segments: 3 });
    expect(countSegments("ж".repeat(134)).segments).toBe(2);
  });

  it("takes no segment for the empty text", () => {
    expect(countSegments("")).toEqual({ encoding: "GSM-7", units: 0, segments: 0 });
  });
});
