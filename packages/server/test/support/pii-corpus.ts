/**
 * A labelled set of customer messages generated from a seed (docs/data-governance.md#pii-redaction):
 * messages carrying one piece of personal data each (random valid card numbers, IBANs, emails, SSNs,
 * phone numbers, birth dates, addresses, as written and as a speech transcriber prints them) and
 * messages carrying only ordinary numbers (prices, times, order numbers, quantities, years) that
 * must come out unchanged. The redaction test and bench/redaction read it.
 */
import type { PiiCategory } from "../../src/modules/redaction/index.ts";

export interface LabelledMessage {
  text: string;
  /** The personal data in the text and its category; none for an ordinary message. */
  pii: { value: string; category: PiiCategory } | null;
  /** How the piece of data is written (for per-form figures). */
  form: string;
}

/** mulberry32: small, seedable, the same set on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIGIT_NAMES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

export function generateCorpus(size: number, seed = 34): LabelledMessage[] {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const digits = (count: number) => Array.from({ length: count }, () => int(0, 9)).join("");

  const luhnDigit = (body: string) => {
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      let digit = Number(body[body.length - 1 - i]);
      if (i % 2 === 0) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return String((10 - (sum % 10)) % 10);
  };
  const card = () => {
    const [prefix, length] = pick([
      ["4", 16],
      ["4", 13],
      ["51", 16],
      ["55", 16],
      ["2221", 16],
      ["34", 15],
      ["37", 15],
      ["6011", 16],
      ["62", 19],
    ] as const);
    const body = prefix + digits(length - prefix.length - 1);
    return body + luhnDigit(body);
  };
  const grouped = (value: string, separator: string) =>
    value.length === 15
      ? `${value.slice(0, 4)}${separator}${value.slice(4, 10)}${separator}${value.slice(10)}`
      : (value.match(/.{1,4}/g) ?? []).join(separator);
  const spoken = (value: string) =>
    (value.match(/.{1,4}/g) ?? [])
      .map((group) => [...group].map((digit) => DIGIT_NAMES[Number(digit)]).join(" "))
      .join(pick([", ", " ", ". "]));

  const iban = () => {
    const [country, bban] = pick([
      ["GB", () => `${pick(["WEST", "NWBK", "BARC", "LOYD"])}${digits(14)}`],
      ["DE", () => digits(18)],
      ["FR", () => `${digits(10)}${digits(11)}${digits(2)}`],
      ["NL", () => `${pick(["ABNA", "INGB", "RABO"])}${digits(10)}`],
      ["ES", () => digits(20)],
    ] as const);
    const body = bban();
    const numeric = [...`${body}${country}00`]
      .map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char))
      .join("");
    let remainder = 0;
    for (const char of numeric) remainder = (remainder * 10 + Number(char)) % 97;
    const check = String(98 - remainder).padStart(2, "0");
    const compact = `${country}${check}${body}`;
    return random() < 0.5 ? compact : (compact.match(/.{1,4}/g) ?? []).join(" ");
  };
  const ssn = () => {
    let area = int(1, 899);
    if (area === 666) area = 667;
    return `${String(area).padStart(3, "0")}-${String(int(1, 99)).padStart(2, "0")}-${String(int(1, 9999)).padStart(4, "0")}`;
  };
  const email = () => {
    const first = pick(["john", "maria", "li", "sam", "olga", "a.b", "k_smith", "pat99"]);
    const last = pick(["smith", "garcia", "wong", "o-neil", "x"]);
    const domain = pick(["example.com", "mail.example.org", "shop.co.uk", "inbox.io", "example.de"]);
    return `${first}${pick([".", "_", ""])}${last}${int(0, 1) ? int(1, 999) : ""}@${domain}`;
  };
  const phone = () =>
    pick([
      () => `(415) 555-${String(int(2000, 2999))}`,
      () => `+44 20 7946 0${digits(3)}`,
      () => `212-555-0${digits(3)}`,
      () => `+1 646 555 0${digits(3)}`,
    ])();
  const MONTHS = ["January", "March", "May", "July", "September", "November"];
  const birthDate = () =>
    pick([
      () => `${int(1, 12)}/${int(1, 28)}/${int(1940, 2005)}`,
      () => `${pick(MONTHS)} ${int(1, 28)}, ${int(1940, 2005)}`,
      () => `${int(1, 28)} ${pick(MONTHS)} ${int(1940, 2005)}`,
    ])();
  const address = () =>
    `${int(1, 9999)} ${pick(["Baker", "Main", "Elm", "Pennsylvania", "Oak Hill", "Queen"])} ${pick(["Street", "Avenue", "Road", "Lane", "Boulevard", "Drive"])}`;

  type Maker = () => LabelledMessage;
  const withPii = (category: PiiCategory, form: string, value: string, template: (v: string) => string) => ({
    text: template(value),
    pii: { value, category },
    form,
  });
  const makers: Maker[] = [
    () => {
      const value = card();
      return withPii("card_number", "card, grouped", grouped(value, pick([" ", "-"])), (v) =>
        pick([
          `My card number is ${v}, expiry 09/27.`,
          `Charge it to ${v} please`,
          `card: ${v} cvv ${digits(3)}`,
        ]),
      );
    },
    () =>
      withPii("card_number", "card, compact", card(), (v) =>
        pick([`it's ${v}`, `Use ${v} for the deposit of $${int(20, 500)}.`]),
      ),
    () =>
      withPii("card_number", "card, spoken", spoken(card()), (v) =>
        pick([
          `yeah the card number is ${v}.`,
          `${v}`,
          `okay so ${v} and the expiry is oh nine twenty seven`,
        ]),
      ),
    () =>
      withPii("bank_account", "IBAN", iban(), (v) =>
        pick([`My IBAN is ${v}.`, `Please refund to ${v}`, `transfer it to ${v} thanks`]),
      ),
    () =>
      withPii("national_id", "US SSN", ssn(), (v) =>
        pick([`my social is ${v}`, `SSN ${v}.`, `It's ${v}, I think.`]),
      ),
    () =>
      withPii("email", "email", email(), (v) =>
        pick([`Send it to ${v}`, `my email is ${v}.`, `${v}`, `reach me at ${v} or by phone`]),
      ),
    () =>
      withPii("phone_number", "phone", phone(), (v) => pick([`Call me back on ${v}.`, `my number is ${v}`])),
    () =>
      withPii("date_of_birth", "birth date", birthDate(), (v) =>
        pick([`I was born on ${v}.`, `date of birth ${v}`, `My birthday is ${v}`]),
      ),
    () =>
      withPii("street_address", "street address", address(), (v) =>
        pick([`I live at ${v}, apartment ${int(1, 40)}.`, `deliver to ${v} please`]),
      ),
  ];
  const ordinary: Maker[] = [
    () => ({
      text: `That's $${int(1, 999)}.${digits(2)} for ${int(2, 12)} items.`,
      pii: null,
      form: "price",
    }),
    () => ({
      text: `Can we do ${int(1, 12)}:${pick(["00", "15", "30", "45"])} ${pick(["am", "pm"])} on Tuesday?`,
      pii: null,
      form: "time",
    }),
    () => ({ text: `My order number is ${int(100000, 99999999)}.`, pii: null, form: "order number" }),
    () => ({
      text: `Order #${pick(["A", "B", "VX"])}-${digits(6)} arrived with ${int(2, 40)} boxes`,
      pii: null,
      form: "order number",
    }),
    () => ({
      text: `I need ${int(2, 500)} units, maybe ${int(2, 50)} more next week.`,
      pii: null,
      form: "quantity",
    }),
    () => ({
      text: `We opened in ${int(1950, 2025)} and moved in ${int(1990, 2025)}.`,
      pii: null,
      form: "year",
    }),
    () => ({
      text: `Table for ${pick(["two", "four", "six"])} at ${pick(["seven", "eight"])} thirty please`,
      pii: null,
      form: "spoken quantity",
    }),
    () => ({
      text: `Meeting on ${int(1, 12)}/${int(1, 28)}/${int(2024, 2027)} at ${int(1, 12)} pm`,
      pii: null,
      form: "date",
    }),
    () => ({
      text: `It takes ${int(2, 9)} hours drive, about ${int(100, 900)} km`,
      pii: null,
      form: "quantity",
    }),
    () => ({ text: `Ticket ${digits(10)} is about room ${int(100, 999)}`, pii: null, form: "order number" }),
    // Ten digits called a number: a US phone number's shape, where false redactions are expected.
    () => ({
      text: `Your confirmation number is ${int(2, 9)}${digits(9)}.`,
      pii: null,
      form: "confirmation number",
    }),
    () => ({
      text: `Tracking 1Z${digits(3)}AA${digits(10)}, ${int(2, 9)} parcels`,
      pii: null,
      form: "order number",
    }),
  ];
  return Array.from({ length: size }, (_, index) => (index % 2 === 0 ? pick(makers) : pick(ordinary))());
}
