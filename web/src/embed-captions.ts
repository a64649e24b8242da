// The embed's lesson captions in the reader's language. The translations
// of every lesson in every language are ten times the rest of the embed,
// so the build writes one file per language (web/build.mjs: captions-LANG,
// each caption with the English it translates) and the embed fetches only
// its reader's, at start, in parallel with everything else. Until it has
// arrived the caption waits (no English flashes first); an English reader
// fetches nothing, and a failed fetch leaves the lessons' own English.
import { lang, type Lang } from "./messages";

type Table = Record<string, [english: string, translation: string]>;

// captionsFor fetches the table of language l (null: English, nothing to
// fetch). A failure or a table that is not one gives English.
export async function captionsFor(l: Lang, urls: Partial<Record<Lang, string>>, get = fetch): Promise<Table> {
  const url = urls[l];
  if (l === "en" || !url) return {};
  try {
    const r = await get(url);
    const t: unknown = r.ok ? await r.json() : {};
    return t !== null && typeof t === "object" && !Array.isArray(t) ? (t as Table) : {};
  } catch {
    return {};
  }
}

// CaptionText answers a caption in the reader's language once its table
// is in (ready); a caption whose text differs from the English the table
// translates (an edited lesson) shows as written.
export class CaptionText {
  private table: Table | null = null;
  readonly ready: Promise<void>;

  constructor(load: Promise<Table>) {
    this.ready = load.then((t) => { this.table = t; });
  }

  // text is the caption key ("<lesson>.caption.2") in the reader's
  // language, or null while the table is on its way.
  text(key: string, english: string): string | null {
    if (this.table === null) return null;
    const e = this.table[key];
    return e && e[0] === english ? e[1] : english;
  }
}

export const captionText = new CaptionText(captionsFor(lang, typeof ASSETS === "undefined" ? {} : ASSETS.captions ?? {}));
