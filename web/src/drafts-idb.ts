// IdbStore keeps the drafts (drafts.ts) in IndexedDB, which holds hundreds
// of megabytes where localStorage stops at 5 MB of UTF-16. The Store calls
// stay synchronous: open() reads every key into memory once, reads come
// from there, and writes go to memory at once and to IndexedDB behind, the
// latest value of a key replacing one still waiting. What the write did
// (saving, saved, failed with the browser's reason) goes to onState, for
// the page's "saved" mark and its message when storage is full.
//
// Drafts from before IndexedDB (localStorage's schedplay.draft*) move over
// when the page opens and leave localStorage once written.
import type { Store } from "./drafts";
import { t } from "./i18n";

const DB = "schedplay";
const STORE = "drafts";

export type SaveState =
  | { state: "saving" }
  | { state: "saved"; at: number; bytes: number }
  | { state: "failed"; error: string; quota: boolean }
  | { state: "unavailable"; error: string };

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function openDB(factory: IDBFactory): Promise<IDBDatabase> {
  const r = factory.open(DB, 1);
  r.onupgradeneeded = () => r.result.createObjectStore(STORE);
  return request(r);
}

// describe turns a failed write into a sentence for the user.
export function describeFailure(e: unknown): { error: string; quota: boolean } {
  const name = (e as { name?: string } | null)?.name ?? "";
  if (name === "QuotaExceededError") {
    return { error: t("draft.quota"), quota: true };
  }
  const msg = (e as { message?: string } | null)?.message ?? String(e);
  return { error: t("draft.refused", { why: name || msg }), quota: false };
}

export class IdbStore implements Store {
  private m = new Map<string, string>();
  private waiting = new Map<string, string | null>(); // key → value to write (null: delete)
  private writing = false;
  private inflight: Array<[string, string | null]> = []; // the batch being written
  onState: (s: SaveState) => void = () => {};

  private constructor(private db: IDBDatabase | null) {}

  // open reads the stored drafts; where IndexedDB cannot be opened (some
  // private windows) it answers with a store that only keeps the text in
  // memory, and says so through unavailable.
  static async open(legacy: Storage | null, keys: string[], factory: IDBFactory | undefined = globalThis.indexedDB): Promise<{ store: IdbStore; unavailable?: string }> {
    let db: IDBDatabase | null = null;
    let unavailable: string | undefined;
    try {
      if (!factory) throw new Error("IndexedDB is missing");
      db = await openDB(factory);
    } catch (e) {
      unavailable = t("draft.unavailable", { why: String((e as Error)?.message ?? e) });
    }
    const s = new IdbStore(db);
    if (db) {
      const tx = db.transaction(STORE, "readonly");
      const os = tx.objectStore(STORE);
      for (const k of keys) {
        const v = await request(os.get(k));
        if (typeof v === "string") s.m.set(k, v);
      }
    }
    // A draft localStorage still holds moves over.
    for (const k of keys) {
      let v: string | null = null;
      try {
        v = legacy?.getItem(k) ?? null;
      } catch {
        v = null;
      }
      if (v === null) continue;
      // Written by a page from before IndexedDB drafts (this one removes
      // it once moved), so newer than what IndexedDB holds.
      s.setItem(k, v);
      if (db) await s.flushed();
      try {
        if (db && s.m.get(k) !== undefined) legacy?.removeItem(k);
      } catch {
        // localStorage refused: the copy there does no harm
      }
    }
    return { store: s, unavailable };
  }

  getItem(key: string): string | null {
    return this.m.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.m.set(key, value);
    this.queue(key, value);
  }

  removeItem(key: string): void {
    this.m.delete(key);
    this.queue(key, null);
  }

  private queue(key: string, value: string | null): void {
    if (!this.db) return;
    this.waiting.set(key, value);
    if (!this.writing) void this.drain();
  }

  private idle: Array<() => void> = [];

  // spill puts the writes not yet done into legacy (localStorage: written
  // at once) as the page goes away, where an IndexedDB transaction may
  // never finish; the next open moves them back (open above). A value too
  // large for it stays unsaved, as it would have anyway.
  spill(legacy: Storage | null): void {
    for (const [k, v] of [...this.inflight, ...this.waiting]) {
      try {
        if (v === null) legacy?.removeItem(k);
        else legacy?.setItem(k, v);
      } catch {
        // full: the IndexedDB write may still finish
      }
    }
  }

  // flushed resolves once every write asked for so far is done (or failed).
  flushed(): Promise<void> {
    if (!this.writing && this.waiting.size === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.size > 0 && this.db) {
      const batch = [...this.waiting];
      this.inflight = batch;
      this.waiting.clear();
      this.onState({ state: "saving" });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = this.db!.transaction(STORE, "readwrite");
          const os = tx.objectStore(STORE);
          for (const [k, v] of batch) {
            if (v === null) os.delete(k);
            else os.put(v, k);
          }
          tx.oncomplete = () => resolve();
          tx.onabort = () => reject(tx.error);
          tx.onerror = () => reject(tx.error);
        });
        const bytes = batch.reduce((n, [, v]) => n + (v?.length ?? 0), 0);
        this.onState({ state: "saved", at: Date.now(), bytes });
      } catch (e) {
        this.onState({ state: "failed", ...describeFailure(e) });
      }
    }
    this.inflight = [];
    this.writing = false;
    for (const r of this.idle.splice(0)) r();
  }
}
