// What the NDJSON row loop inserts in each row, built once per run: the answer members per
// answer key, the extensions' members, a bad row's members, and the scanner's names.

import type { Dataset } from '../format/dataset.js';
import { type ExtensionRow, ndjsonExtras } from './extension-cells.js';
import { LAT_NAMES, LON_NAMES } from './columns.js';
import { type AnswerNames, answerNames, type NameSet, nameSet } from './ndjson-scan.js';
import { writtenMembers } from './ndjson-replace.js';
import { answerTable, encoder, extensionColumns, oversizeRow, type AnswerTable, type RowSettings } from './rows.js';

/**
 * What an NDJSON row gets inserted before its closing brace: `,"country":"FRA","subdivision":"FR-75C"`,
 * then the extensions' members (--timezone: `,"timezone":"Europe/Paris"`).
 */
export interface NdjsonCells extends AnswerTable {
  /** The extensions' members, after the answer members; else null. */
  extras: ((latitude: number, longitude: number) => string) | null;
  /** The members for a bad row, before its "error" member. */
  nulls: string;
  /** What a line over MAX_RECORD_BYTES becomes, without its line feed. */
  oversize: string;
  /**
   * The member names the scanner reads, as UTF-8: the names given, else the default names the
   * last row read by JSON.parse used (learned: files keep their names); null: no scanner.
   */
  latKey: Uint8Array | null;
  lonKey: Uint8Array | null;
  /**
   * Names not given: the default names. A row with another member of one of these names in any
   * case goes to JSON.parse, so the scanner's member is always the rule's pick.
   */
  latNames: NameSet | null;
  lonNames: NameSet | null;
  /** The members this run writes: a row holding one goes to answerCuts, which replaces it. */
  answers: AnswerNames;
}

/** The cells for `settings`; `row` answers the extensions' members (settings.extensions). */
export function ndjsonCells(ds: Dataset, settings: RowSettings, row: ExtensionRow = null): NdjsonCells {
  const names = extensionColumns(settings);
  if (names.length > 0 && row === null) throw new Error('settings.extensions needs their row');
  const members = (c: string | null, s: string | null) =>
    (settings.country ? `,"country":${JSON.stringify(c)}` : '') +
    (settings.subdivision ? `,"subdivision":${JSON.stringify(s)}` : '');
  const answers = answerTable(ds, settings, members);
  // A key whose bytes are not valid UTF-8 decodes to U+FFFD, so bytes cannot tell a name with
  // U+FFFD (or a lone surrogate, encoded as U+FFFD) from another: JSON.parse decides. Member
  // paths are read by JSON.parse too (the scanner reads top-level members only).
  const scanner =
    settings.latPath === null &&
    settings.lonPath === null &&
    [settings.latKey, settings.lonKey].every((k) => !/[\uD800-\uDFFF\uFFFD]/.test(k));
  const defaults = (given: string, them: readonly string[]) => (scanner && given === '' ? nameSet(them) : null);
  return {
    ...answers,
    extras: row && ndjsonExtras(row, names),
    nulls: members(null, null) + names.map((n) => `,${JSON.stringify(n)}:null`).join(''),
    oversize: oversizeRow(settings),
    latKey: scanner ? encoder.encode(settings.latKey || LAT_NAMES[0]) : null,
    lonKey: scanner ? encoder.encode(settings.lonKey || LON_NAMES[0]) : null,
    latNames: defaults(settings.latKey, LAT_NAMES),
    lonNames: defaults(settings.lonKey, LON_NAMES),
    answers: answerNames(writtenMembers(settings)),
  };
}
