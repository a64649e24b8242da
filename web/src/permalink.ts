// Permalinks: a whole scenario (YAML, seed, engine version) and the view
// (selected pod, time, speed) in a URL fragment.
//
// Format v1, the fragment is "v1." + base64url (no padding) of the raw
// DEFLATE of a UTF-8 payload:
//
//	{"e":"v1.36","s":0,"n":4244,"c":"9f1c02aa","p":"default/critical","t":3.5,"x":2,"q":3,"g":1}\n<YAML as typed>
//
// "q" is the event shown (its seq, -1 before the first) and "g" is 1 when
// playback was running: a link opens on that event, paused unless it was
// playing. Links made before "q" existed carry only the time "t"; decoders
// ignore header fields they do not know, so both kinds open everywhere.
//
// The first line is a JSON header (JSON never holds a raw newline); the rest
// is the scenario text, byte for byte. DEFLATE starts from the frozen
// preset dictionary of permalink-dict.ts. "n" and "c" (the YAML's UTF-8 length
// and CRC-32) catch truncated or altered links: DEFLATE alone can decode a
// link that lost its last characters without complaint. A later format gets
// a new prefix ("v2.") and this decoder stays, so old links keep working.
// Nothing here touches the DOM: the page and node's tests share it.
import { deflateSync, Inflate } from "fflate";
import { DICTIONARY_V1 } from "./permalink-dict";
import { t } from "./messages";

export const ENGINE_VERSION = "v1.36";
export const PREFIX = "v1.";
// Chat apps cut messages at about 2,000 characters.
export const MAX_LINK_CHARS = 2000;
// The most scenario text a link may inflate to: the engine's byte limit
// (scenario.DefaultLimits.Bytes, docs/limits.md). Decoding stops there, so
// a small link that inflates to gigabytes costs milliseconds, not the tab.
export const MAX_TEXT_BYTES = 4 << 20;
// Room for the JSON header line on top of the text.
const MAX_HEADER_BYTES = 4096;
// How much compressed input one push hands the inflater: DEFLATE expands
// at most about 1,032 times, so the output overshoots the limit by at
// most about 1 MiB before decoding stops.
const PUSH_BYTES = 1024;

export interface View {
  pod?: string; // "namespace/name" of the selected pod
  t?: number; // simulated seconds from the start
  speed?: number; // playback speed, 1 = real time
  event?: number; // seq of the event shown (-1: before the first)
  playing?: boolean; // playback was running
}

// viewOf is the moment a playhead shows, as a link records it (times to
// the millisecond).
export function viewOf(tl: { now: number; speed: number; cursor: number; playing: boolean }, pod?: string): View {
  const v: View = { t: Math.round(tl.now * 1000) / 1000, speed: tl.speed, event: tl.cursor, playing: tl.playing };
  if (pod !== undefined) v.pod = pod;
  return v;
}

export interface Permalink {
  yaml: string;
  seed: number;
  engine: string;
  view: View;
}

export type Decoded =
  | { ok: true; link: Permalink }
  | {
      ok: false;
      error: string; // a sentence for the user
      recovered: string; // the part of the scenario text that could be read ("" if none)
      partial?: Omit<Permalink, "yaml">; // the header, when it could be read
    };

interface Header {
  e: string;
  s: number;
  n: number;
  c: string;
  p?: string;
  t?: number;
  x?: number;
  q?: number;
  g?: number;
}

const utf8 = new TextEncoder();
const dictionary = utf8.encode(DICTIONARY_V1);

// ---- base64url ----

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function base64url(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63] + ALPHABET[v & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63];
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63];
  }
  return out;
}

// fromBase64url decodes as much of s as is valid: bytes up to the first
// character outside the alphabet (bad is its index, or -1).
export function fromBase64url(s: string): { bytes: Uint8Array; bad: number } {
  let bad = -1;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || INDEX[c] < 0) {
      bad = i;
      n = i;
      break;
    }
  }
  const out = new Uint8Array(Math.floor((n * 6) / 8));
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < n; i++) {
    acc = ((acc << 6) | INDEX[s.charCodeAt(i)]) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return { bytes: out.subarray(0, o), bad };
}

// ---- CRC-32 (IEEE), to tell a whole link from a damaged one ----

const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

export function crc32(bytes: Uint8Array): string {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}

// ---- encode ----

// encode returns the fragment (without "#") for a scenario and view.
export function encode(p: Permalink): string {
  const body = utf8.encode(p.yaml);
  const h: Header = { e: p.engine || ENGINE_VERSION, s: p.seed | 0, n: body.length, c: crc32(body) };
  if (p.view.pod) h.p = p.view.pod;
  if (p.view.t !== undefined && Number.isFinite(p.view.t) && p.view.t > 0) h.t = p.view.t;
  if (p.view.speed !== undefined && Number.isFinite(p.view.speed) && p.view.speed !== 1) h.x = p.view.speed;
  if (p.view.event !== undefined && Number.isInteger(p.view.event) && p.view.event >= -1) h.q = p.view.event;
  if (p.view.playing) h.g = 1;
  const head = utf8.encode(JSON.stringify(h) + "\n");
  const payload = new Uint8Array(head.length + body.length);
  payload.set(head);
  payload.set(body, head.length);
  return PREFIX + base64url(deflateSync(payload, { level: 9, mem: 12, dictionary }));
}

export interface BuiltLink {
  url: string;
  length: number;
  fits: boolean; // within MAX_LINK_CHARS
}

// linkFor builds the full address of a permalink on page (for example
// "https://example.org/schedplay/index.html"); any fragment of page is dropped.
export function linkFor(page: string, p: Permalink): BuiltLink {
  const url = page.replace(/#.*$/s, "") + "#" + encode(p);
  return { url, length: url.length, fits: url.length <= MAX_LINK_CHARS };
}

// ---- decode ----

// isPermalink tells a fragment that is meant as a schedplay link (of any
// version) from one that is not ("", "#details", ...).
export function isPermalink(fragment: string): boolean {
  return /^v\d+\./.test(fragment.replace(/^#/, ""));
}

// inflatePartial inflates data until it ends, fails or passes limit bytes
// (over), keeping what was decoded.
function inflatePartial(data: Uint8Array, limit: number): { bytes: Uint8Array; complete: boolean; over: boolean } {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inf = new Inflate({ dictionary }, (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  let complete = true;
  let over = false;
  // Pushes of PUSH_BYTES, then an empty final one: a failing final push
  // would discard what the earlier ones decoded.
  try {
    for (let i = 0; i < data.length && !over; i += PUSH_BYTES) {
      inf.push(data.subarray(i, i + PUSH_BYTES), false);
      over = size > limit;
    }
    if (!over) inf.push(new Uint8Array(0), true);
  } catch {
    complete = false;
  }
  if (over) return { bytes: new Uint8Array(0), complete: false, over };
  const bytes = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.length;
  }
  return { bytes, complete, over };
}

// readableText decodes UTF-8, dropping an incomplete character at the end
// (a cut link ends anywhere) and replacing invalid sequences.
function readableText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes, { stream: true });
}

function parseHeader(line: string): Header | null {
  let h: unknown;
  try {
    h = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof h !== "object" || h === null) return null;
  const r = h as Record<string, unknown>;
  if (typeof r.e !== "string" || typeof r.n !== "number" || typeof r.c !== "string" || typeof r.s !== "number") return null;
  if (r.p !== undefined && typeof r.p !== "string") return null;
  if (r.t !== undefined && typeof r.t !== "number") return null;
  if (r.x !== undefined && typeof r.x !== "number") return null;
  if (r.q !== undefined && (!Number.isInteger(r.q) || (r.q as number) < -1)) return null;
  if (r.g !== undefined && typeof r.g !== "number") return null;
  return r as unknown as Header;
}

function headerLink(h: Header): Omit<Permalink, "yaml"> {
  const view: View = {};
  if (h.p) view.pod = h.p;
  if (h.t !== undefined) view.t = h.t;
  if (h.x !== undefined) view.speed = h.x;
  if (h.q !== undefined) view.event = h.q;
  if (h.g) view.playing = true;
  return { seed: h.s, engine: h.e, view };
}

// decode reads a fragment (with or without the leading "#"). It never
// throws: a damaged link gives an error sentence and the text it could read.
export function decode(fragment: string): Decoded {
  const f = fragment.replace(/^#/, "");
  const version = /^v(\d+)\./.exec(f);
  if (!version) {
    return { ok: false, error: t("link.notPermalink"), recovered: "" };
  }
  if (version[0] !== PREFIX) {
    return {
      ok: false,
      error: t("link.newer", { version: version[1] }),
      recovered: "",
    };
  }
  const { bytes, bad } = fromBase64url(f.slice(PREFIX.length));
  const { bytes: raw, complete, over } = inflatePartial(bytes, MAX_TEXT_BYTES + MAX_HEADER_BYTES);
  if (over) {
    return {
      ok: false,
      error: t("link.tooLarge", { mib: MAX_TEXT_BYTES / (1 << 20) }),
      recovered: "",
    };
  }
  const nl = raw.indexOf(10);
  const header = nl >= 0 ? parseHeader(new TextDecoder().decode(raw.subarray(0, nl))) : null;
  const body = nl >= 0 ? raw.subarray(nl + 1) : new Uint8Array(0);
  const recovered = readableText(body);
  // fail says the link is damaged and why (a message of the catalogs).
  const fail = (why: string): Decoded => {
    const r: Decoded = { ok: false, error: t("link.damaged", { why }), recovered };
    if (header) r.partial = headerLink(header);
    return r;
  };
  if (bad >= 0) {
    return fail(t("link.badChar", { pos: PREFIX.length + bad + 1 }));
  }
  if (!header) {
    return fail(t(raw.length === 0 ? "link.nothingRead" : "link.headerUnreadable"));
  }
  if (!complete || body.length !== header.n || crc32(body) !== header.c) {
    return fail(body.length < header.n
      ? t("link.partRead", { pct: Math.round((100 * body.length) / Math.max(header.n, 1)) })
      : t("link.checksum"));
  }
  // ignoreBOM keeps a leading U+FEFF: the text comes back byte for byte.
  return { ok: true, link: { yaml: new TextDecoder("utf-8", { ignoreBOM: true }).decode(body), ...headerLink(header) } };
}

// Start is where a link's playback begins: on an event (paused unless the
// link was copied while playing), at a time (paused), or from the start,
// playing (the first kind of v1 link, copied at t=0, said nothing more).
export interface Start {
  event: number | null; // seq to show; null: go by t
  t: number;
  playing: boolean;
}

export function startOf(view: View): Start {
  const t = view.t !== undefined && Number.isFinite(view.t) && view.t > 0 ? view.t : 0;
  if (view.event !== undefined) return { event: view.event, t, playing: view.playing === true };
  return { event: null, t, playing: t === 0 };
}
