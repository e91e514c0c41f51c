/**
 * The kinds of personal data an assistant may have redacted from what is stored and sent onwards
 * (docs/data-governance.md#pii-redaction), and the typed placeholder each is replaced with.
 */
export const PII_CATEGORIES = [
  "card_number",
  "bank_account",
  "national_id",
  "email",
  "phone_number",
  "date_of_birth",
  "street_address",
] as const;

export type PiiCategory = (typeof PII_CATEGORIES)[number];

export const PLACEHOLDERS: Record<PiiCategory, string> = {
  card_number: "[card number]",
  bank_account: "[bank account]",
  national_id: "[national id]",
  email: "[email]",
  phone_number: "[phone number]",
  date_of_birth: "[date of birth]",
  street_address: "[address]",
};

/**
 * When two findings of the same length overlap, the one of the category earlier here wins (a card
 * number is also a run of digits a phone parser might take).
 */
export const PRECEDENCE: readonly PiiCategory[] = [
  "card_number",
  "bank_account",
  "national_id",
  "email",
  "date_of_birth",
  "street_address",
  "phone_number",
];

export function isPiiCategory(value: string): value is PiiCategory {
  return (PII_CATEGORIES as readonly string[]).includes(value);
}
