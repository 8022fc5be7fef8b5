import { parseDocument } from 'htmlparser2';

/**
 * A light XML tree for feeds and sitemaps (htmlparser2 in XML mode: fast, and tolerant of the
 * broken markup real feeds carry). Names are matched by local name, so any namespace prefix a
 * publisher chose (`news:`, `n:`, none) reads the same.
 */
export interface XmlNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  data?: string;
  children?: XmlNode[];
}

export function parseXml(text: string): XmlNode {
  // A BOM or whitespace before the declaration is common and harmless.
  return parseDocument(text.replace(/^\uFEFF/, '').trimStart(), { xmlMode: true }) as unknown as XmlNode;
}

export const localName = (n: XmlNode): string => {
  const name = n.name ?? '';
  const i = name.indexOf(':');
  return (i < 0 ? name : name.slice(i + 1)).toLowerCase();
};

export const prefixOf = (n: XmlNode): string => {
  const name = n.name ?? '';
  const i = name.indexOf(':');
  return i < 0 ? '' : name.slice(0, i);
};

export const elements = (n: XmlNode): XmlNode[] => (n.children ?? []).filter((c) => c.type === 'tag');

/** Child elements with this local name. */
export const childrenNamed = (n: XmlNode, local: string): XmlNode[] => elements(n).filter((c) => localName(c) === local);

export const child = (n: XmlNode, local: string): XmlNode | undefined => elements(n).find((c) => localName(c) === local);

/** Text and CDATA of a node, entity-decoded, trimmed. */
export function textOf(n: XmlNode | undefined): string {
  if (!n) return '';
  let s = '';
  const walk = (x: XmlNode): void => {
    if (x.type === 'text') s += x.data ?? '';
    for (const c of x.children ?? []) walk(c);
  };
  walk(n);
  return s.trim();
}

/** The first element (depth-first) with this local name. */
export function find(n: XmlNode, local: string): XmlNode | undefined {
  for (const c of elements(n)) {
    if (localName(c) === local) return c;
    const d = find(c, local);
    if (d) return d;
  }
  return undefined;
}

const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
const ZONES: Record<string, number> = { gmt: 0, ut: 0, utc: 0, z: 0, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420 };

/**
 * Dates as feeds and sitemaps write them: W3C/ISO 8601 (`2026-11-20`, `2026-11-20T08:15+08:00`),
 * RFC 822/1123 (`Tue, 21 Apr 2020 16:00:00 GMT`, `+0800`, two-digit years, no weekday), and the
 * `2026-11-20 08:00:00` that Chinese CMSes print without a zone (read at `assumeOffsetMinutes`).
 * undefined when it is none of these.
 */
export function parseFeedDate(raw: string | undefined, assumeOffsetMinutes = 0): number | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim();
  if (s === '') return undefined;
  const iso = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i.exec(s);
  if (iso) {
    const [, y, mo, d, h, mi, sec, frac, zone] = iso;
    const utc = Date.UTC(Number(y), Number(mo ?? 1) - 1, Number(d ?? 1), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0), frac ? Math.round(Number(`0.${frac}`) * 1000) : 0);
    // A date alone is a day (UTC); a time without a zone is local to the publisher.
    const offset = zone === undefined ? (h === undefined ? 0 : assumeOffsetMinutes) : zoneMinutes(zone);
    return Number.isFinite(utc) ? utc - offset * 60_000 : undefined;
  }
  const rfc = /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Za-z]{1,4}|[+-]\d{4})?$/.exec(s);
  if (rfc) {
    const [, d, mon, yRaw, h, mi, sec, zone] = rfc;
    const month = MONTHS[mon!.toLowerCase()];
    if (month === undefined) return undefined;
    let y = Number(yRaw);
    if (yRaw!.length === 2) y += y < 50 ? 2000 : 1900;
    const utc = Date.UTC(y, month, Number(d), Number(h), Number(mi), Number(sec ?? 0));
    const offset = zone === undefined ? assumeOffsetMinutes : zoneMinutes(zone);
    return utc - offset * 60_000;
  }
  return undefined;
}

function zoneMinutes(zone: string): number {
  if (/^[+-]/.test(zone)) {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  return ZONES[zone.toLowerCase()] ?? 0;
}

/** Resolves a link against a base; undefined when it does not resolve to http(s). */
export function resolveHttp(href: string | undefined, base: string): string | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
