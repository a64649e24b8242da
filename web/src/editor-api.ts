// The scenario editor as the playground page uses it. The CodeMirror
// implementation (editor.ts) is a separate bundle the page loads once the
// stage frame has started its wasm download, so that the editor's half a
// megabyte of script does not hold back the canvas.
import type { Diagnostic } from "./bridge";

export interface TextEditor {
  text(): string;
  // length is text().length without reading the text (a megabyte of it
  // takes milliseconds to join).
  length(): number;
  // setText replaces the whole text; like typing, it counts as a change.
  setText(text: string): void;
  // setDiagnostics marks the load's problems; error is shown at the start
  // when a failed load has none.
  setDiagnostics(diagnostics: Diagnostic[], error?: string): void;
  setDark(dark: boolean): void;
  // reveal puts the cursor at a line and column (1-based) and scrolls there.
  reveal(line: number, col: number): void;
}

export interface EditorInit {
  text: string;
  diagnostics: Diagnostic[];
  error?: string;
  dark: boolean;
  onChange(): void;
}

export type EditorFactory = (parent: HTMLElement, init: EditorInit) => TextEditor;

// diagnosticMessage is how a diagnostic reads in the editor and the notice.
export function diagnosticMessage(d: Diagnostic): string {
  let message = d.msg;
  if (d.field) message = `${d.field}: ${message}`;
  if (d.object) message = `${d.object}: ${message}`;
  if (d.hint) message += ` (${d.hint})`;
  return message;
}

// PendingEditor holds the text, diagnostics and theme until the editor
// bundle is there, then hands them to it.
export class PendingEditor implements TextEditor {
  private value = "";
  private diagnostics: Diagnostic[] = [];
  private error?: string;
  private dark = false;

  constructor(private onChange: () => void) {}

  text(): string {
    return this.value;
  }

  length(): number {
    return this.value.length;
  }

  setText(text: string): void {
    this.value = text;
    this.onChange();
  }

  setDiagnostics(diagnostics: Diagnostic[], error?: string): void {
    this.diagnostics = diagnostics;
    this.error = error;
  }

  setDark(dark: boolean): void {
    this.dark = dark;
  }

  reveal(): void {
    // nothing to reveal before the editor is there
  }

  init(): EditorInit {
    return { text: this.value, diagnostics: this.diagnostics, error: this.error, dark: this.dark, onChange: this.onChange };
  }
}
