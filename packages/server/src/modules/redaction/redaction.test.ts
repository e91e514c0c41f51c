import { describe, expect, it } from "vitest";
import { generateCorpus } from "../../../test/support/pii-corpus.ts";
import { ibanValid, luhnValid, spanishIdValid } from "./checksums.ts";
import { findPii, PII_CATEGORIES, type PiiCategory, redact, redactJson } from "./index.ts";

const ALL = PII_CATEGORIES;
const only = (category: PiiCategory, text: string) => redact(text, [category]).text;

describe("checksums", () => {
  it("Luhn, IBAN mod 97 and the Spanish control letter", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("GB82WEST12345698765433")).toBe(false);
    expect(ibanValid("DE8937040044053201300")).toBe(false); // one digit short for DE
    expect(spanishIdValid("12345678Z")).toBe(true);
    expect(spanishIdValid("12345678A")).toBe(false);
    expect(spanishIdValid("X1234567L")).toBe(true);
  });
});

describe("redact", () => {
  it("replaces card numbers written and spoken, Luhn-checked, and returns their spans", () => {
    const text = "Card 4111 1111 1111 1111, exp 12/25, cvv 123";
    const result = redact(text, ALL);
    expect(result.text).toBe("Card [card number], exp 12/25, cvv 123");
    expect(result.spans).toEqual([{ start: 5, end: 24, category: "card_number" }]);
    expect(text.slice(5, 24)).toBe("4111 1111 1111 1111");
    expect(only("card_number", "4111-1111-1111-1111")).toBe("[card number]");
    expect(only("card_number", "378282246310005 and 4111111111111112")).toBe(
      "[card number] and 4111111111111112",
    );
    expect(
      only("card_number", "it's four one one one, one one one one. one one one one one one one one, thanks"),
    ).toBe("it's [card number], thanks");
    expect(only("card_number", "four triple one, one one one one, double one double one, 1111")).toBe(
      "[card number]",
    );
  });

  it("finds IBANs by their check digits, and account numbers only when named", () => {
    expect(only("bank_account", "refund GB82 WEST 1234 5698 7654 32 please")).toBe(
      "refund [bank account] please",
    );
    expect(only("bank_account", "IBAN DE89370400440532013000.")).toBe("IBAN [bank account].");
    expect(only("bank_account", "GB82 WEST 1234 5698 7654 33")).toBe("GB82 WEST 1234 5698 7654 33");
    expect(only("bank_account", "account number 12345678, sort code 12-34-56")).toBe(
      "account number [bank account], sort code [bank account]",
    );
    expect(only("bank_account", "order 12345678 arrived")).toBe("order 12345678 arrived");
  });

  it("finds US SSNs, UK NI numbers, Canadian SINs and Spanish DNI/NIE", () => {
    expect(only("national_id", "SSN 123-45-6789. Not 000-12-3456 or 666-12-3456")).toBe(
      "SSN [national id]. Not 000-12-3456 or 666-12-3456",
    );
    expect(only("national_id", "NI AB 12 34 56 C, not QQ 12 34 56 C")).toBe(
      "NI [national id], not QQ 12 34 56 C",
    );
    expect(only("national_id", "SIN 046 454 286. Also 046 454 287")).toBe(
      "SIN [national id]. Also 046 454 287",
    );
    expect(only("national_id", "DNI 12345678Z, NIE X1234567L")).toBe("DNI [national id], NIE [national id]");
    expect(
      only("national_id", "my social security number is one two three four five six seven eight nine"),
    ).toBe("my social security number is [national id]");
  });

  it("finds emails written and spoken", () => {
    expect(only("email", "mail a.b+c@shop.example.co.uk now")).toBe("mail [email] now");
    expect(only("email", "it's john dot smith at gmail dot com")).toBe("it's [email]");
    expect(only("email", "meet at noon")).toBe("meet at noon");
  });

  it("finds phone numbers by the numbering plans; bare digits only when called a number", () => {
    expect(only("phone_number", "call (415) 555-2671 or +44 20 7946 0958")).toBe(
      "call [phone number] or [phone number]",
    );
    expect(only("phone_number", "my number is four one five, five five five, two six seven one")).toBe(
      "my number is [phone number]",
    );
    expect(only("phone_number", "Ticket 4155552671 is open")).toBe("Ticket 4155552671 is open");
    expect(only("phone_number", "my cell is 4155552671")).toBe("my cell is [phone number]");
  });

  it("finds dates of birth only in a birth context, within the sentence", () => {
    expect(only("date_of_birth", "I was born on March 3rd, 1985. Meeting on 04/05/2025")).toBe(
      "I was born on [date of birth]. Meeting on 04/05/2025",
    );
    expect(only("date_of_birth", "DOB: 1985-03-03")).toBe("DOB: [date of birth]");
    expect(only("date_of_birth", "the appointment is on 3 March 2026")).toBe(
      "the appointment is on 3 March 2026",
    );
  });

  it("finds street addresses and UK postcodes, best effort", () => {
    expect(only("street_address", "I live at 221B Baker Street, London NW1 6XE")).toBe(
      "I live at [address], London [address]",
    );
    expect(only("street_address", "1600 Pennsylvania Avenue NW, Apt 5 is it")).toBe("[address] is it");
    expect(only("street_address", "it's 3 hours drive; 2 people on the way")).toBe(
      "it's 3 hours drive; 2 people on the way",
    );
  });

  it("redacts only the categories asked for, and strings inside JSON", () => {
    const text = "4111111111111111 / a@b.example";
    expect(redact(text, ["email"]).text).toBe("4111111111111111 / [email]");
    expect(redact(text, []).text).toBe(text);
    expect(findPii("nothing here", ALL)).toEqual([]);
    expect(redactJson({ email: "a@b.example", n: 3, list: ["4111111111111111"] }, ALL)).toEqual({
      email: "[email]",
      n: 3,
      list: ["[card number]"],
    });
  });
});

describe("the generated labelled set", () => {
  const corpus = generateCorpus(3000);

  it("leaves no card number or email behind", () => {
    const survivors = corpus
      .filter((message) => message.pii?.category === "card_number" || message.pii?.category === "email")
      .filter((message) => redact(message.text, ALL).text.includes(message.pii!.value));
    expect(survivors.length).toBe(0);
    expect(corpus.filter((message) => message.pii?.category === "card_number").length).toBeGreaterThan(300);
  });

  it("redacts every labelled piece of data in its own category", () => {
    const misses = corpus
      .filter((message) => message.pii)
      .filter((message) => {
        const result = redact(message.text, ALL);
        return (
          result.text.includes(message.pii!.value) ||
          !result.spans.some((span) => span.category === message.pii!.category)
        );
      });
    expect(misses.map((message) => message.text)).toEqual([]);
  });

  it("reports the false redactions of ordinary numbers: none but ten-digit numbers called numbers", () => {
    const ordinary = corpus.filter((message) => message.pii === null);
    const changed = ordinary.filter((message) => redact(message.text, ALL).spans.length > 0);
    expect(ordinary.length).toBeGreaterThan(1000);
    expect(new Set(changed.map((message) => message.form))).toEqual(
      changed.length ? new Set(["confirmation number"]) : new Set(),
    );
  });
});
