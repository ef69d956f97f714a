import * as vscode from "vscode";

/** What `@terminal` sends at most: the end of the active terminal's output. */
const KEEP_CHARS = 16_000;

/**
 * The recent output of each terminal, read through shell integration (VS Code gives an extension a command's
 * output only while it runs, and only where the shell reports its commands). Each terminal keeps its last
 * KEEP_CHARS characters, escape sequences removed; closed terminals are forgotten.
 */
export class TerminalOutput implements vscode.Disposable {
  private readonly output = new Map<vscode.Terminal, string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidStartTerminalShellExecution((event) => void this.record(event)),
      vscode.window.onDidCloseTerminal((terminal) => this.output.delete(terminal)),
    ];
  }

  /** The active terminal's recent output, or a sentence saying why there is none. */
  recent(): string {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return "No terminal is open.";
    const text = this.output.get(terminal);
    if (!text)
      return `Nothing recorded from the terminal "${terminal.name}" yet: its output is read through shell integration, from the next command on.`;
    return `Terminal "${terminal.name}", most recent output last:\n${text}`;
  }

  private async record(event: vscode.TerminalShellExecutionStartEvent): Promise<void> {
    const append = (text: string) => {
      const kept = (this.output.get(event.terminal) ?? "") + text;
      this.output.set(event.terminal, kept.slice(-KEEP_CHARS));
    };
    append(`$ ${event.execution.commandLine.value}\n`);
    try {
      for await (const data of event.execution.read()) append(stripAnsi(data));
    } catch {
      // The terminal went away mid-command: what was read stays.
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

function stripAnsi(text: string): string {
  // CSI and OSC sequences (colours, cursor moves, shell-integration marks), then lone carriage returns.
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "").replace(/\r(?!\n)/g, "");
}
