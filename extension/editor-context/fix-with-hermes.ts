import * as vscode from "vscode";
import type { ChatSession } from "../chat/chat-session.js";

export const FIX_COMMAND = "hermes.fixDiagnostic";
export const FIX_TITLE = "Ask Hermes to fix";

/** Lines of code around the problem sent with it, so the model sees the context without reading the file first. */
const CONTEXT_LINES = 3;

/**
 * "Ask Hermes to fix" on every diagnostic (the light bulb and Ctrl+.), for any language: one quick fix per problem
 * under the cursor or selection. The command does the work, so listing the actions costs nothing.
 */
export class FixWithHermes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return context.diagnostics.map((diagnostic) => {
      const action = new vscode.CodeAction(
        `${FIX_TITLE}: ${firstLine(diagnostic.message)}`,
        vscode.CodeActionKind.QuickFix,
      );
      action.diagnostics = [diagnostic];
      action.command = { command: FIX_COMMAND, title: FIX_TITLE, arguments: [document.uri, diagnostic] };
      return action;
    });
  }
}

/**
 * Starts a turn about one diagnostic: the problem as the editor reports it (severity, source, code, message, file and
 * position) in the prompt, and the lines around it attached as a selection. Resolves when the turn ends.
 */
export async function askToFix(
  chat: ChatSession,
  reveal: () => void,
  uri: vscode.Uri,
  diagnostic: vscode.Diagnostic,
): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const start = Math.max(0, diagnostic.range.start.line - CONTEXT_LINES);
  const end = Math.min(document.lineCount - 1, diagnostic.range.end.line + CONTEXT_LINES);
  const code = document.getText(new vscode.Range(start, 0, end, document.lineAt(end).text.length));
  chat.attachSelection(uri, code, start, end);
  reveal();
  await chat.prompt(describeProblem(vscode.workspace.asRelativePath(uri), diagnostic));
}

/** `Fix this problem in src/a.ts:12:5: error TS2322 (ts): Type 'string' is not assignable…` */
export function describeProblem(path: string, diagnostic: vscode.Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  const severity = ["error", "warning", "info", "hint"][diagnostic.severity] ?? "problem";
  const code = typeof diagnostic.code === "object" ? diagnostic.code.value : diagnostic.code;
  const origin = [code === undefined ? "" : String(code), diagnostic.source ? `(${diagnostic.source})` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    `Fix this problem in ${path}:${line + 1}:${character + 1}: ${severity}${origin ? ` ${origin}` : ""}: ` +
    `${diagnostic.message}\nChange only what the fix needs.`
  );
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
