import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { TerminalDisplay } from "./terminal-handlers.js";

// Older Hermes terminals are closed past this many, so a long session does not bury the user's own terminals.
const MAX_OPEN = 5;
const TITLE_CHARS = 40;

/**
 * Shows the agent's commands in VS Code terminals named "Hermes: <command>", read-only pseudoterminals fed with the
 * output as it comes. A terminal is created at the first output (or at the exit of a silent command) and revealed
 * without taking the focus from where the user is typing.
 */
export class TerminalViews implements vscode.Disposable {
  private readonly open: vscode.Terminal[] = [];

  /** The display of one command. */
  display(commandLine: string): TerminalDisplay {
    let write: ((text: string) => void) | undefined;
    const show = (text: string) => {
      write ??= this.create(commandLine);
      write(text.replace(/\r?\n/g, "\r\n"));
    };
    return {
      output: show,
      exited: (status) => show(`\r\n[${describeExit(status)}]\r\n`),
    };
  }

  dispose(): void {
    for (const terminal of this.open.splice(0)) terminal.dispose();
  }

  private create(commandLine: string): (text: string) => void {
    const writes = new vscode.EventEmitter<string>();
    // Output that arrives before VS Code opened the terminal is held until it does.
    let pending: string[] | undefined = [`$ ${commandLine}\r\n`];
    const pty: vscode.Pseudoterminal = {
      onDidWrite: writes.event,
      open: () => {
        for (const text of pending ?? []) writes.fire(text);
        pending = undefined;
      },
      close: () => writes.dispose(),
    };
    const title = commandLine.length > TITLE_CHARS ? `${commandLine.slice(0, TITLE_CHARS - 1)}…` : commandLine;
    const terminal = vscode.window.createTerminal({ name: `Hermes: ${title}`, pty, isTransient: true });
    terminal.show(true);
    this.open.push(terminal);
    while (this.open.length > MAX_OPEN) this.open.shift()!.dispose();
    return (text) => (pending ? pending.push(text) : writes.fire(text));
  }
}

function describeExit(status: acp.TerminalExitStatus): string {
  if (status.signal) return `stopped by ${status.signal}`;
  return `exited with code ${status.exitCode ?? "unknown"}`;
}
