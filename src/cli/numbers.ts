// Number formatting for the CLI's text. Not toLocaleString: its first call loads ICU's locale
// data, a cost every CLI start would pay for one line of help text.

/** 1234567.8 → "1,234,568". */
export function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
