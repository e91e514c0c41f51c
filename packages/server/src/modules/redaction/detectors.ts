import { lazyRequire } from "../../lazy-require.ts";
import type { PiiCategory } from "./categories.ts";
import { ibanValid, luhnValid, spanishIdValid, ssnPlausible } from "./checksums.ts";
import { acceptedStretches, type DigitToken } from "./digit-runs.ts";

/** The numbering plans are loaded by the first text that asks for phone numbers, not at start. */
const libphonenumber = lazyRequire<typeof import("libphonenumber-js/max")>("libphonenumber-js/max");

/** One finding: `text.slice(start, end)` is personal data of `category`. */
export interface PiiSpan {
  start: number;
  end: number;
  category: PiiCategory;
}

export interface DetectOptions {
  /** Where numbers written without a country code are read as local ones (ISO 3166 alpha-2). */
  defaultCountry: string;
}

type Detector = (text: string, options: DetectOptions, runs: () => DigitToken[][]) => PiiSpan[];

/** Card brands' first digits (2-6: Mastercard 2-series, Amex, Visa, Mastercard, Discover/UnionPay). */
const CARD_FIRST_DIGIT = /^[2-6]/;

const cards: Detector = (_text, _options, runs) =>
  runs().flatMap((run) =>
    acceptedStretches(run, 13, 19, (digits) => CARD_FIRST_DIGIT.test(digits) && luhnValid(digits)).map(
      (stretch) => ({ start: stretch.start, end: stretch.end, category: "card_number" as const }),
    ),
  );

/** Two letters, two check digits, then 11 to 30 letters or digits, in groups of four or not. */
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

const ibans: Detector = (text) => {
  const found: PiiSpan[] = [];
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    // The candidate may have run on into the next word: the longest prefix that checks is the IBAN.
    const chars: { char: string; end: number }[] = [];
    for (let i = 0; i < match[0].length; i++)
      if (match[0][i] !== " ") chars.push({ char: match[0][i]!, end: match.index + i + 1 });
    for (let length = Math.min(chars.length, 34); length >= 15; length--) {
      if (
        ibanValid(
          chars
            .slice(0, length)
            .map((entry) => entry.char)
            .join(""),
        )
      ) {
        found.push({ start: match.index, end: chars[length - 1]!.end, category: "bank_account" });
        break;
      }
    }
  }
  return found;
};

/**
 * Account numbers without a checksum are only told from other numbers by what is said before them:
 * "account number", "routing number", "sort code", "acct" within a few words.
 */
const ACCOUNT_CONTEXT =
  /\b(?:(?:bank\s+)?account(?:\s+(?:number|no\.?|#))?|acct\.?|routing(?:\s+number)?|sort\s+code|IBAN|BSB)\b/gi;
const CONTEXT_REACH = 40;

/**
 * Whether one of `contexts` (where a naming phrase ends) comes shortly before `start`, in the same
 * sentence: "my DOB is 3/3/1985. Meeting on 4/5/2025" makes only the first date a birth date.
 */
function named(text: string, contexts: number[], start: number): boolean {
  return contexts.some(
    (end) => end <= start && start - end <= CONTEXT_REACH && !SENTENCE_END.test(text.slice(end, start)),
  );
}
const SENTENCE_END = /[.!?](?:\s|$)/;

const bankAccounts: Detector = (text, _options, runs) => {
  const contexts = [...text.matchAll(ACCOUNT_CONTEXT)].map((match) => match.index + match[0].length);
  if (contexts.length === 0) return [];
  const found: PiiSpan[] = [];
  for (const run of runs()) {
    const digits = run.map((token) => token.digits).join("");
    if (digits.length < 6 || digits.length > 17) continue;
    const start = run[0]!.start;
    if (named(text, contexts, start)) found.push({ start, end: run.at(-1)!.end, category: "bank_account" });
  }
  return found;
};

const SSN = /\b(\d{3})([- ])(\d{2})\2(\d{4})\b/g;
const SSN_CONTEXT = /\b(?:social\s+security(?:\s+number)?|SSN|SIN|social\s+insurance(?:\s+number)?)\b/gi;
/** UK National Insurance number: HMRC's excluded prefixes (D, F, I, Q, U, V; O second; BG, GB, NK, KN, TN, NT, ZZ). */
const UK_NINO =
  /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/gi;
/** Canadian social insurance number, 3-3-3 with Luhn. */
const CA_SIN = /\b(\d{3})([- ])(\d{3})\2(\d{3})\b/g;
/** Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter), checked by their letter. */
const ES_ID = /\b[XYZ]?\d{7,8}-?[A-Z]\b/gi;

const nationalIds: Detector = (text, _options, runs) => {
  const found: PiiSpan[] = [];
  for (const match of text.matchAll(SSN))
    if (ssnPlausible(match[1]!, match[3]!, match[4]!))
      found.push({ start: match.index, end: match.index + match[0].length, category: "national_id" });
  for (const match of text.matchAll(UK_NINO))
    found.push({ start: match.index, end: match.index + match[0].length, category: "national_id" });
  for (const match of text.matchAll(CA_SIN))
    if (luhnValid(match[1]! + match[3]! + match[4]!))
      found.push({ start: match.index, end: match.index + match[0].length, category: "national_id" });
  for (const match of text.matchAll(ES_ID))
    if (spanishIdValid(match[0].replace("-", "")))
      found.push({ start: match.index, end: match.index + match[0].length, category: "national_id" });
  // Nine digits in a row (written or spoken) are an SSN or SIN only when named just before.
  const contexts = [...text.matchAll(SSN_CONTEXT)].map((match) => match.index + match[0].length);
  if (contexts.length > 0)
    for (const run of runs()) {
      const start = run[0]!.start;
      if (!named(text, contexts, start)) continue;
      for (const stretch of acceptedStretches(run, 9, 9, () => true))
        found.push({ start: stretch.start, end: stretch.end, category: "national_id" });
    }
  return found;
};

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** As a transcriber writes one: "john dot smith at gmail dot com". */
const SPOKEN_EMAIL =
  /\b[a-z0-9_-]+(?:\s+(?:dot|underscore|dash)\s+[a-z0-9_-]+)*\s+at\s+[a-z0-9-]+(?:\s+dot\s+[a-z0-9-]+)*\s+dot\s+(?:com|net|org|edu|gov|io|co|uk|us|de|fr|es|it|nl|ca|au|info|biz|me)\b/gi;

const emails: Detector = (text) =>
  [...text.matchAll(EMAIL), ...(text.includes(" at ") ? text.matchAll(SPOKEN_EMAIL) : [])].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    category: "email" as const,
  }));

const phones: Detector = (text, options, runs) => {
  const found: PiiSpan[] = [];
  // Written numbers: valid numbers of the numbering plans (libphonenumber), looked for in the
  // stretches that may hold one. A stretch is parsed whole first; only one that is not a number
  // and holds more digits than one goes through the finder, which costs far more.
  if (digitCount(text) >= MIN_PHONE_DIGITS) {
    const contexts = phoneContexts(text);
    for (const candidate of text.matchAll(PHONE_CANDIDATE)) {
      const digits = digitCount(candidate[0]);
      if (digits < MIN_PHONE_DIGITS) continue;
      const numbers = validNumber(candidate[0], options)
        ? [{ startsAt: 0, endsAt: candidate[0].length }]
        : digits > 10
          ? libphonenumber().findNumbers(candidate[0], {
              defaultCountry: options.defaultCountry as never,
              v2: true,
            })
          : [];
      for (const number of numbers) {
        const start = candidate.index + number.startsAt;
        const end = candidate.index + number.endsAt;
        // Bare digits ("Ticket 5049800974") are a phone number only when called one.
        if (/^\d+$/.test(text.slice(start, end)) && !named(text, contexts, start)) continue;
        found.push({ start, end, category: "phone_number" });
      }
    }
  }
  // Spoken numbers ("four one five, five five five, ..."): a run of digit words that is a valid
  // number as a whole (a longer run is a card or an account number, not a phone number).
  for (const run of runs()) {
    if (!run.some((token) => token.spoken)) continue;
    const digits = run.map((token) => token.digits).join("");
    if (digits.length >= MIN_PHONE_DIGITS && digits.length <= 15 && validNumber(digits, options))
      found.push({ start: run[0]!.start, end: run.at(-1)!.end, category: "phone_number" });
  }
  return found;
};

/** Digits with what numbers are written with between them: "+44 (0)20 7946-0958", "415.555.2671". */
const PHONE_CANDIDATE = /\+?\(?\d[\d\s().-]{5,24}\d/g;

/** No numbering plan has shorter numbers a person would give as theirs. */
const MIN_PHONE_DIGITS = 7;

function digitCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

const PHONE_CONTEXT = /\b(?:phone|number|call|reach|text|cell|mobile|tel|contact|whatsapp)\b/gi;
const phoneContexts = (text: string) =>
  [...text.matchAll(PHONE_CONTEXT)].map((match) => match.index + match[0].length);

function validNumber(digits: string, options: DetectOptions): boolean {
  const parsed = libphonenumber().parsePhoneNumberFromString(digits, options.defaultCountry as never);
  return parsed?.isValid() ?? false;
}

const MONTHS =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const ORDINAL = "\\d{1,2}(?:st|nd|rd|th)?";
const DATE = new RegExp(
  [
    "\\b\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})\\b",
    "\\b\\d{4}-\\d{2}-\\d{2}\\b",
    `\\b(?:${MONTHS})\\.?\\s+${ORDINAL}(?:,?\\s+\\d{4})?\\b`,
    `\\b(?:the\\s+)?${ORDINAL}\\s+(?:of\\s+)?(?:${MONTHS})\\.?(?:,?\\s+\\d{4})?\\b`,
  ].join("|"),
  "gi",
);
/** Words that make a date a birth date when said within a few words before it. */
const BIRTH_CONTEXT = /\b(?:born|birth(?:day|date)?|d\.?o\.?b\.?|date\s+of\s+birth)\b/gi;

const birthDates: Detector = (text) => {
  const contexts = [...text.matchAll(BIRTH_CONTEXT)].map((match) => match.index + match[0].length);
  if (contexts.length === 0) return [];
  const found: PiiSpan[] = [];
  for (const match of text.matchAll(DATE))
    if (named(text, contexts, match.index))
      found.push({ start: match.index, end: match.index + match[0].length, category: "date_of_birth" });
  return found;
};

const STREET_TYPES =
  "street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|close|crescent|parkway|pkwy|highway|hwy|square|sq";
/**
 * A house number, one to four name words, a street type, an optional unit: "221B Baker Street",
 * "1600 Pennsylvania Avenue NW, Apt 5". The name words exclude words that make "3 hours drive" or
 * "2 people on the way" look like one.
 */
const STREET = new RegExp(
  `\\b\\d{1,5}[A-Za-z]?\\s+(?:(?!(?:the|a|an|on|in|at|of|to|for|and|or|my|your|by|per|hours?|minutes?|mins?|days?|weeks?|people|persons?|miles?|km|times|more|other|each)\\b)[A-Za-z][A-Za-z'-]*\\.?\\s+){1,4}(?:${STREET_TYPES})\\b\\.?(?:\\s+(?:N|S|E|W|NE|NW|SE|SW)\\b)?(?:,?\\s*(?:apt|apartment|suite|unit|flat|#)\\.?\\s*[A-Za-z0-9-]+)?`,
  "gi",
);
/** UK postcodes ("SW1A 1AA"), which alone point at a few houses. */
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}\b/g;

const addresses: Detector = (text) =>
  [...text.matchAll(STREET), ...text.matchAll(UK_POSTCODE)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    category: "street_address" as const,
  }));

export const DETECTORS: Record<PiiCategory, Detector> = {
  card_number: cards,
  bank_account: (text, options, runs) => [
    ...ibans(text, options, runs),
    ...bankAccounts(text, options, runs),
  ],
  national_id: nationalIds,
  email: emails,
  phone_number: phones,
  date_of_birth: birthDates,
  street_address: addresses,
};
