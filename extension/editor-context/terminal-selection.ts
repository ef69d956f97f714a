import * as vscode from "vscode";
import type { ChatSession } from "../chat/chat-session.js";

/**
 * "Add to Hermes Chat" in a terminal's context menu: the terminal's selection joins the next prompt. VS Code gives
 * extensions no direct read of a terminal's selection, so it goes through the clipboard (VS Code's own Copy), and the
 * clipboard is put back as it was.
 */
export async function addTerminalSelection(chat: ChatSession, reveal: () => void): Promise<void> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return void vscode.window.showInformationMessage("Open a terminal and select some of its text first.");
  const saved = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText("");
  await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
  const selected = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText(saved);
  if (!selected.trim()) return void vscode.window.showInformationMessage("Select some of the terminal's text first.");
  chat.attachText(`terminal: ${terminal.name}`, selected);
  reveal();
}
