// Predict, then see: a lesson's questions stop playback just before the
// event that shows their answer. The learner picks an option here, or
// selects a node or pod on the canvas (a click or Enter opens its details
// as always) and answers with it by a button here; the session grades the
// answer against the engine's run (the bridge's answer call) and says
// why, and playback goes on. The right answer is never in the page or the
// lesson text.
import type { AnswerReply, Bridge, QuestionReply } from "./bridge";
import type { Lesson, Question } from "./captions";
import { fmtTime } from "./timeline";
import { lessonText, t } from "./i18n";

export interface QuizHooks {
  pause(seq: number): void; // stop playback showing the state just before event seq
  play(): void;
  finished(): void; // every question answered
}

interface Asked { q: Question; index: number; reply: QuestionReply; answered: boolean }

// State the end-to-end tests read.
// passed: questions a shared link's moment closed unasked.
export const quizProbe = { asked: [] as string[], shown: "", right: 0, wrong: 0, pending: 0, passed: 0 };
(window as unknown as { __schedplayQuiz: typeof quizProbe }).__schedplayQuiz = quizProbe;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const short = (key: string) => key.replace(/^default\//, "");

export class Quiz {
  private asked: Asked[] | null = null;
  private current: Asked | null = null;
  private chosen = new Set<string>();
  // The pod or node selected on the canvas, which the question may take.
  private selected: { kind: "pod" | "node"; key: string } | null = null;
  private box: HTMLElement;

  constructor(private api: Bridge, readonly lesson: Lesson, private root: HTMLElement, private hooks: QuizHooks) {
    this.box = root;
    root.replaceChildren();
    root.hidden = true;
    quizProbe.asked = [];
    quizProbe.shown = "";
    quizProbe.right = quizProbe.wrong = quizProbe.passed = 0;
    quizProbe.pending = (lesson.questions ?? []).length;
  }

  get active(): boolean { return (this.lesson.questions ?? []).length > 0; }
  get open(): boolean { return this.current !== null; }

  // resolve asks the session where each question stops playback; false
  // while the run has not got that far.
  private resolve(): boolean {
    if (this.asked) return true;
    const out: Asked[] = [];
    for (const [index, q] of (this.lesson.questions ?? []).entries()) {
      const r = JSON.parse(this.api.question(q.id)) as QuestionReply;
      if (!r.ok) {
        console.error(`question ${q.id}: ${r.error}`);
        continue;
      }
      if (!r.ready) return false;
      out.push({ q, index, reply: r, answered: false });
    }
    out.sort((a, b) => a.reply.seq - b.reply.seq || a.index - b.index);
    this.asked = out;
    return true;
  }

  // hold is called as playback moves: it says whether playback must stop
  // (the run is not resolved yet, or a question waits at the cursor).
  hold(cursor: number): boolean {
    if (!this.active) return false;
    // Until the run has reached the answers, playback goes on; a question
    // found behind the cursor takes it back.
    if (!this.asked && !this.resolve()) return false;
    if (!this.box.hidden && !this.current) {
      this.hooks.pause(cursor); // an answer is on screen: wait for "Play on"
      return true;
    }
    const next = this.asked!.find((a) => !a.answered);
    if (!next) return false;
    if (cursor < next.reply.seq - 1) return false;
    this.hooks.pause(next.reply.seq - 1);
    if (this.current !== next) this.show(next);
    return true;
  }

  // passTo closes, unasked and uncredited, the questions whose answer a
  // shared link's moment has already passed (at an event, or for a link
  // without one, at a time): the recipient sees what the sender saw. It
  // says whether it closed any (the trace then goes on). A question the
  // moment stops at stays open, as it was on the sender's screen.
  passTo(at: { event: number | null; t: number }): boolean {
    if (!this.active || !this.resolve()) return false;
    let closed = false;
    for (const a of this.asked!) {
      const passed = at.event !== null ? a.reply.seq <= at.event : at.t > 0 && a.reply.t <= at.t;
      if (a.answered || !passed) continue;
      const r = JSON.parse(this.api.answer(a.q.id, "", "true")) as AnswerReply;
      if (!r.ok) continue;
      a.answered = true;
      quizProbe.pending--;
      quizProbe.passed++;
      closed = true;
      if (this.current === a) {
        this.current = null;
        this.box.hidden = true;
        quizProbe.shown = "";
      }
    }
    return closed;
  }

  private show(a: Asked): void {
    this.current = a;
    this.chosen.clear();
    const q = a.q;
    const name = this.lesson.name ?? "";
    const text = lessonText(`${name}.q.${q.id}`, q.text);
    quizProbe.shown = q.id;
    quizProbe.asked.push(q.id);
    const total = this.asked!.length;
    const n = this.asked!.indexOf(a) + 1;
    const head = el("div", "quiz-head");
    head.append(el("span", "quiz-n", t("q.label", { n, total })), el("strong", "quiz-text", text));
    const body = el("div", "quiz-body");
    const pick = el("div", "quiz-options");
    pick.setAttribute("role", "group");
    pick.setAttribute("aria-label", text);
    const multi = q.ask === "victims" || q.ask === "feasible";
    const hint = { node: "q.pickNode", feasible: "q.pickNodes", victims: "q.pickPods", pod: "q.pickPod", time: "q.pickTime" }[q.ask];
    const use = el("div", "quiz-use");
    body.append(el("p", "quiz-hint", t(hint)), pick, use);
    const option = (value: string, label: string) => {
      const b = el("button", "quiz-option", label);
      b.type = "button";
      b.dataset.value = value;
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", () => this.choose(value));
      pick.append(b);
    };
    if (q.ask === "time") for (const s of q.options ?? []) option(`${s}s`, fmtTime(s));
    else if (q.ask === "node" || q.ask === "feasible") {
      for (const nd of a.reply.nodes) option(nd, nd);
      option("", t("q.noNode"));
    } else for (const p of a.reply.pods) option(p, short(p));
    if (multi) {
      const chosen = el("p", "quiz-chosen");
      chosen.id = "quiz-chosen";
      body.append(chosen);
      const check = el("button", "quiz-check", t("q.check"));
      check.type = "button";
      check.addEventListener("click", () => this.submit());
      body.append(check);
    }
    const feedback = el("div", "quiz-feedback");
    feedback.id = "quiz-feedback";
    feedback.setAttribute("role", "status");
    feedback.setAttribute("aria-live", "polite");
    this.box.replaceChildren(head, body, feedback);
    this.box.hidden = false;
    this.refresh();
    // The lesson panel beside the editor may scroll: the question in view
    // (scrolling that panel alone, never the page).
    const panel = this.box.closest<HTMLElement>("#lesson");
    if (panel) {
      const below = this.box.getBoundingClientRect().bottom - panel.getBoundingClientRect().bottom;
      if (below > 0) panel.scrollTop += below;
    }
  }

  // selection hears what the canvas has selected ("" kind: nothing). It
  // answers nothing: a button offers the selection as the answer.
  selection(kind: "pod" | "node" | "", key: string): void {
    const next = kind === "" ? null : { kind, key };
    if (next?.kind === this.selected?.kind && next?.key === this.selected?.key) return;
    this.selected = next;
    this.refresh();
  }

  // offered is the selection if the open question asks for its kind.
  private offered(): string | null {
    const q = this.current?.q, s = this.selected;
    if (!q || !s) return null;
    const wants = q.ask === "node" || q.ask === "feasible" ? "node" : q.ask === "time" ? "" : "pod";
    return s.kind === wants ? s.key : null;
  }

  private choose(value: string): void {
    const q = this.current?.q;
    if (!q) return;
    if (q.ask === "victims" || q.ask === "feasible") {
      if (value === "") this.chosen.clear();
      else if (this.chosen.has(value)) this.chosen.delete(value);
      else this.chosen.add(value);
      this.refresh();
      return;
    }
    this.chosen = new Set(value === "" ? [] : [value]);
    this.refresh();
    this.submit();
  }

  private refresh(): void {
    this.box.querySelectorAll<HTMLButtonElement>(".quiz-option").forEach((b) => {
      b.setAttribute("aria-pressed", String(this.chosen.has(b.dataset.value!)));
    });
    const use = this.box.querySelector(".quiz-use");
    const key = this.offered();
    if (use && use.querySelector("button")?.dataset.label !== `${key}:${key !== null && this.chosen.has(key)}`) {
      const focused = use.contains(document.activeElement);
      use.replaceChildren();
      if (key !== null) {
        const multi = this.current!.q.ask === "victims" || this.current!.q.ask === "feasible";
        const label = !multi ? "q.useOne" : this.chosen.has(key) ? "q.useRemove" : "q.useAdd";
        const b = el("button", "quiz-use-selected", t(label, { name: short(key) }));
        b.type = "button";
        b.dataset.label = `${key}:${this.chosen.has(key)}`;
        b.addEventListener("click", () => this.choose(key));
        use.append(b);
        if (focused) b.focus();
      }
    }
    const c = this.box.querySelector("#quiz-chosen");
    if (c) c.textContent = t("q.chosen", { answer: this.chosen.size ? [...this.chosen].map(short).join(", ") : t("q.nothing") });
  }

  private describe(r: AnswerReply): string {
    const a = r.answer!;
    if (a.ask === "time") return fmtTime(a.t ?? 0);
    const names = a.ask === "victims" || a.ask === "pod" ? a.pods ?? [] : a.nodes ?? [];
    return names.length ? names.map(short).join(", ") : t("q.none");
  }

  submit(reveal = false): void {
    const cur = this.current;
    if (!cur) return;
    const given = [...this.chosen].join(",");
    const r = JSON.parse(this.api.answer(cur.q.id, given, reveal ? "true" : "false")) as AnswerReply;
    const fb = this.box.querySelector("#quiz-feedback") as HTMLElement;
    if (!r.ok || !r.answer) {
      fb.textContent = r.error ?? "";
      return;
    }
    if (!r.right && !reveal) {
      quizProbe.wrong++;
      const mine = given ? given.split(",").map(short).join(", ") : t("q.none");
      fb.replaceChildren(el("p", "quiz-wrong", t("q.wrong", { answer: mine })));
      const show = el("button", "quiz-reveal", t("q.reveal"));
      show.type = "button";
      show.addEventListener("click", () => this.submit(true));
      fb.append(show);
      return;
    }
    if (r.right) quizProbe.right++;
    cur.answered = true;
    quizProbe.pending--;
    const line = r.right ? t("q.right", { answer: this.describe(r) }) : t("q.revealed", { answer: this.describe(r) });
    fb.replaceChildren(el("p", r.right ? "quiz-right" : "quiz-revealed", line), el("p", "quiz-why", t("q.why", { why: r.answer.why })));
    const go = el("button", "quiz-continue", t("q.continue"));
    go.type = "button";
    go.addEventListener("click", () => this.next());
    fb.append(go);
    this.box.querySelectorAll<HTMLButtonElement>(".quiz-option, .quiz-check, .quiz-use-selected").forEach((b) => { b.disabled = true; });
    this.current = null;
    if (this.asked!.every((a) => a.answered)) this.hooks.finished();
    go.focus();
  }

  // next closes the answered question and plays on.
  next(): void {
    if (this.current) return;
    this.box.hidden = true;
    quizProbe.shown = "";
    this.hooks.play();
  }
}
