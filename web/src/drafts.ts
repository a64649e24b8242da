// Drafts: the editor text autosaved (in IndexedDB: drafts-idb.ts), and one draft kept
// aside when something else (a link, an import) takes the editor, so opening
// a link never silently overwrites unsaved work.
//
// Storage can be missing or full (private windows, sandboxed frames, quota):
// every call here degrades to "nothing saved" instead of throwing.

export const DRAFT_KEY = "schedplay.draft";
export const PREVIOUS_KEY = "schedplay.draft.previous";

export interface Store {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Kept {
  text: string;
  savedAt: number; // ms since the epoch
  why: string; // what replaced it, for the notice ("a shared link", "an import")
}

// browserStore returns localStorage, or null where touching it throws.
export function browserStore(): Store | null {
  try {
    const s = window.localStorage;
    s.getItem(DRAFT_KEY);
    return s;
  } catch {
    return null;
  }
}

export class Drafts {
  constructor(private store: Store | null, private now: () => number = Date.now) {}

  // use replaces the store (the page starts on localStorage's and moves
  // to IndexedDB's once that is open).
  use(store: Store | null): void {
    this.store = store;
  }

  current(): string | null {
    try {
      return this.store?.getItem(DRAFT_KEY) ?? null;
    } catch {
      return null;
    }
  }

  // save returns false when the text could not be stored.
  save(text: string): boolean {
    try {
      if (!this.store) return false;
      this.store.setItem(DRAFT_KEY, text);
      return true;
    } catch {
      return false;
    }
  }

  previous(): Kept | null {
    try {
      const raw = this.store?.getItem(PREVIOUS_KEY);
      if (!raw) return null;
      const k = JSON.parse(raw) as Kept;
      return typeof k.text === "string" ? k : null;
    } catch {
      return null;
    }
  }

  // keepAside stores text as the previous draft; false if it could not.
  keepAside(text: string, why: string): boolean {
    try {
      if (!this.store) return false;
      this.store.setItem(PREVIOUS_KEY, JSON.stringify({ text, savedAt: this.now(), why } satisfies Kept));
      return true;
    } catch {
      return false;
    }
  }

  dropPrevious(): void {
    try {
      this.store?.removeItem(PREVIOUS_KEY);
    } catch {
      // nothing to drop
    }
  }
}

// PendingDraft holds the text a link put in the editor until that text
// has loaded: only then does it become the autosaved draft. Saved at once,
// a link whose scenario kills the engine would come back on every reload;
// held, the draft stays what it was (and the kept-aside one a click away).
export class PendingDraft {
  private text: string | null = null;
  constructor(private drafts: Drafts) {}

  hold(text: string): void {
    this.text = text;
  }

  // loaded reports the outcome of the first load after hold: the held text
  // is saved if it loaded, dropped if not.
  loaded(ok: boolean): void {
    if (this.text === null) return;
    if (ok) this.drafts.save(this.text);
    this.text = null;
  }
}

// worthKeeping tells whether draft holds work that replacing it with
// incoming would lose: it is not empty, not the default scenario and not
// the incoming text itself.
export function worthKeeping(draft: string | null, incoming: string, defaultText: string): draft is string {
  if (draft === null || draft.trim() === "") return false;
  return draft !== incoming && draft.trim() !== defaultText.trim();
}

// MemoryStore is a Store for tests and for pages without localStorage.
export class MemoryStore implements Store {
  private m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}
