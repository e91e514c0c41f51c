/** Luhn (ISO/IEC 7812-1): payment card numbers and Canadian social insurance numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** IBAN check digits (ISO 13616): the rearranged number, letters as 10..35, mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return false;
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/** IBAN lengths of the SEPA countries and a few others (ECBS registry); others are checked by mod 97 alone. */
export const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AT: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  KW: 30,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PT: 25,
  QA: 29,
  RO: 24,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TR: 26,
  UA: 29,
  VA: 22,
};

/** Spanish DNI/NIE control letter: the number mod 23 indexes this alphabet. */
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

/** A DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits, a letter) whose letter checks. */
export function spanishIdValid(value: string): boolean {
  const upper = value.toUpperCase();
  const prefix = "XYZ".indexOf(upper[0]!);
  const digits = prefix >= 0 ? `${prefix}${upper.slice(1, -1)}` : upper.slice(0, -1);
  if (!/^\d{8}$/.test(digits)) return false;
  return DNI_LETTERS[Number(digits) % 23] === upper.at(-1);
}

/** A US social security number the SSA may issue: no 000, 666 or 9xx area, no 00 group, no 0000 serial. */
export function ssnPlausible(area: string, group: string, serial: string): boolean {
  return area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000";
}
