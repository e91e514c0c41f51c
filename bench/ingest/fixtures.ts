/**
 * Inputs for the ingestion benchmark, generated deterministically: prose, a ~20 MB PDF (cached in the
 * temp dir) and a 200-page website.
 */

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "../../packages/server/src/seeded-random.ts";

// pdf-lib is a devDependency of the server package, not of the repository root.
const serverRequire = createRequire(new URL("../../packages/server/package.json", import.meta.url));
const pdfLib = serverRequire("pdf-lib") as typeof import("pdf-lib");

const FUNCTION_WORDS =
  "the of and to in a is that for it as with was on be by at this from or which an are have has not but they their can its".split(
    " ",
  );
const TOPIC_WORDS =
  "customer order delivery warranty refund invoice account password appointment clinic schedule price discount subscription contract support ticket shipment battery engine filter repair booking flight hotel payment card transfer balance policy coverage claim doctor patient dosage medicine school course lesson exam student teacher property tenant lease deposit insurance premium vehicle mileage service station software update release server network router firewall backup storage".split(
    " ",
  );
const SYLLABLES =
  "ka ri mo te lu sa ven dor pel tis nar quo bex fin gal hum jor lix mav nep ors pru qin ret sul tov uly vam wes xan yor zel".split(
    " ",
  );

/**
 * Words drawn with a Zipf-like law over a large vocabulary (real topic words plus made-up terms):
 * like real text, a few words are everywhere and most are rare, which is what full-text and vector
 * indexes are sensitive to.
 */
export class ProseGenerator {
  private readonly vocabulary: string[];
  private readonly random: () => number;

  constructor(seed: number, vocabularySize = 20_000) {
    this.random = seededRandom(seed);
    const made = new Set<string>();
    const shape = seededRandom(seed ^ 0x9e3779b9);
    while (made.size < vocabularySize - TOPIC_WORDS.length) {
      const syllables = 2 + Math.floor(shape() * 3);
      let word = "";
      for (let index = 0; index < syllables; index++)
        word += SYLLABLES[Math.floor(shape() * SYLLABLES.length)];
      made.add(word);
    }
    this.vocabulary = [...TOPIC_WORDS, ...made];
  }

  word(): string {
    if (this.random() < 0.4) return FUNCTION_WORDS[Math.floor(this.random() * FUNCTION_WORDS.length)]!;
    // Inverse-CDF sampling of a Zipf(s = 1) law: rank = N^u.
    const rank = Math.floor(this.vocabulary.length ** this.random()) - 1;
    return this.vocabulary[Math.min(rank, this.vocabulary.length - 1)]!;
  }

  sentence(): string {
    const length = 8 + Math.floor(this.random() * 14);
    const words = Array.from({ length }, () => this.word());
    const first = words[0]!;
    words[0] = first[0]!.toUpperCase() + first.slice(1);
    return `${words.join(" ")}.`;
  }

  /** About `words` words, in sentences. */
  paragraph(words: number): string {
    const sentences: string[] = [];
    let count = 0;
    while (count < words) {
      const sentence = this.sentence();
      sentences.push(sentence);
      count += sentence.split(" ").length;
    }
    return sentences.join(" ");
  }
}

export interface PdfFixture {
  path: string;
  bytes: number;
  pages: number;
}

const PDF_LINES_PER_PAGE = 48;
const PDF_CHARS_PER_LINE = 92;

/**
 * A PDF of `pages` pages of dense prose (Helvetica, ~4 KB of text a page) plus uncompressible
 * images (one every 40 pages, like the figures of a report) sized so the file is about `targetBytes`.
 * Cached under the temp dir by its parameters.
 */
export async function pdfFixture(pages: number, targetBytes: number): Promise<PdfFixture> {
  const dir = join(tmpdir(), "voxgate-bench-ingest");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `report-${pages}p-${targetBytes}b.pdf`);
  if (existsSync(path)) return { path, bytes: readFileSync(path).byteLength, pages };

  const textOnly = await buildPdf(pages, 0);
  const imageCount = Math.ceil(pages / 40);
  const imageBudget = Math.max(0, targetBytes - textOnly.byteLength - imageCount * 300);
  const bytes = await buildPdf(pages, Math.floor(imageBudget / imageCount));
  writeFileSync(`${path}.tmp`, bytes);
  renameSync(`${path}.tmp`, path);
  return { path, bytes: bytes.byteLength, pages };
}

async function buildPdf(pages: number, bytesPerImage: number): Promise<Uint8Array> {
  const {
    PDFDocument,
    StandardFonts,
    pushGraphicsState,
    popGraphicsState,
    concatTransformationMatrix,
    drawObject,
  } = pdfLib;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const prose = new ProseGenerator(42);
  // Raw RGB noise: a valid image that no filter can shrink, so the file size is what the budget says.
  const side = Math.max(1, Math.floor(Math.sqrt(bytesPerImage / 3)));
  for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
    const page = doc.addPage([595, 842]);
    let lines = wrap(`Section ${pageNumber}. ${prose.paragraph(700)}`, PDF_CHARS_PER_LINE).slice(
      0,
      PDF_LINES_PER_PAGE,
    );
    if (bytesPerImage > 0 && pageNumber % 40 === 1) {
      const image = doc.context.stream(randomBytes(side * side * 3), {
        Type: "XObject",
        Subtype: "Image",
        Width: side,
        Height: side,
        ColorSpace: "DeviceRGB",
        BitsPerComponent: 8,
      });
      const name = page.node.newXObject("Figure", doc.context.register(image));
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(300, 0, 0, 300, 150, 480),
        drawObject(name),
        popGraphicsState(),
      );
      lines = lines.slice(0, PDF_LINES_PER_PAGE / 2);
    }
    for (const [index, line] of lines.entries()) {
      page.drawText(line, { x: 40, y: 800 - index * 16, size: 10, font });
    }
  }
  return doc.save({ useObjectStreams: true });
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A site of `pages` article pages: navigation and footer around an <article> of ~800 words. */
export function sitePages(pages: number): Map<string, string> {
  const prose = new ProseGenerator(7);
  const site = new Map<string, string>();
  for (let index = 1; index <= pages; index++) {
    const nav = Array.from({ length: 12 }, (_, offset) => {
      const target = ((index + offset * 7) % pages) + 1;
      return `<li><a href="/articles/${target}.html">Article ${target}</a></li>`;
    }).join("");
    const paragraphs = Array.from({ length: 8 }, () => `<p>${prose.paragraph(100)}</p>`).join("\n");
    site.set(
      `/articles/${index}.html`,
      `<!doctype html><html><head><meta charset="utf-8"><title>Article ${index}</title></head>
<body><header><nav><ul>${nav}</ul></nav></header>
<main><article><h1>Article ${index}</h1>\n${paragraphs}</article></main>
<footer><p>Copyright Example Ltd. <a href="/about.html">About</a> <a href="/contact.html">Contact</a></p></footer>
</body></html>`,
    );
  }
  return site;
}

export type AdversarialText = "one-letter" | "random-letters";

/**
 * A UTF-8 text file that is one endless "word": `one-letter` repeats "a" (the case of issue #9: 200 KB
 * took 74 s to chunk), `random-letters` draws lowercase letters, so no tokenised segment repeats
 * and the tokenizer's merge cache cannot help. Cached under the temp dir by its parameters.
 */
export function adversarialTextFixture(
  kind: AdversarialText,
  bytes: number,
): { path: string; bytes: number } {
  const dir = join(tmpdir(), "voxgate-bench-ingest");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${kind}-${bytes}b.txt`);
  if (existsSync(path)) return { path, bytes };
  const content = Buffer.alloc(bytes, "a");
  if (kind === "random-letters") {
    const random = seededRandom(9);
    for (let index = 0; index < bytes; index++) content[index] = 97 + Math.floor(random() * 26);
  }
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
  return { path, bytes };
}

/** Plain prose of about `bytes` bytes in paragraphs (a TXT document), cached under the temp dir. */
export function proseTextFixture(bytes: number): { path: string; bytes: number } {
  const dir = join(tmpdir(), "voxgate-bench-ingest");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `prose-${bytes}b.txt`);
  if (existsSync(path)) return { path, bytes };
  const prose = new ProseGenerator(11);
  const paragraphs: string[] = [];
  let size = 0;
  while (size < bytes) {
    const paragraph = prose.paragraph(120);
    paragraphs.push(paragraph);
    size += Buffer.byteLength(paragraph) + 2;
  }
  writeFileSync(`${path}.tmp`, paragraphs.join("\n\n"));
  renameSync(`${path}.tmp`, path);
  return { path, bytes };
}
