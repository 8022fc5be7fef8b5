import { readDate } from './dates';

/** A label a dated signature opens with: "Last updated", "Posted on". */
export const DATED_LABEL_RE = /^(?:last\s+)?(?:updated|modified|posted|published|written)\s+(?:on\s+)?/i;

/**
 * The name a dated signature gives after its date, as written (bylines.ts's nameOf checks it is
 * one): "Last updated March 3, 2025 by Erik Demaine." at the foot of a personal page names who
 * keeps it. Undefined where the date does not follow the label or no capitalised name follows "by".
 */
export function signatureName(text: string, dayFirst: boolean): string | undefined {
  const label = DATED_LABEL_RE.exec(text);
  if (!label) return undefined;
  const rest = text.slice(label[0].length);
  const read = readDate(rest, dayFirst);
  if (read?.index !== 0) return undefined;
  const by = /^\s*by\s+(\p{Lu}.*)$/u.exec(rest.slice(read.end));
  // The sentence's full stop after the name ("by Erik Demaine. — Accessibility"), not an initial's.
  return by ? by[1]!.replace(/(?<=\p{Ll}{2})\s*\.(?:\s.*)?$/u, '') : undefined;
}
