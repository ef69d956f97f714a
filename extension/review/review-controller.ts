import { basename } from "node:path";
import * as vscode from "vscode";
import { applyText, currentText } from "./apply-edit.js";
import { applyHunks, computeHunks, type Hunk, lineCounts } from "./hunks.js";
import { PreviewDocuments } from "./preview-documents.js";

/** What the user decided about a proposal; `text` is what was written when they kept all or part of it. */
export type ReviewOutcome =
  | { readonly kind: "accepted"; readonly text: string; readonly partial: boolean }
  | { readonly kind: "rejected" };

/** What the chat shows of the review: a proposal appeared (or was re-shown against a changed file), or was decided. */
export type ReviewEvent =
  | {
      readonly type: "proposed";
      readonly id: string;
      readonly path: string;
      readonly base: string | null;
      readonly proposed: string;
    }
  | { readonly type: "decided"; readonly id: string; readonly status: "accepted" | "rejected" | "partial" };

interface Proposal {
  readonly id: string;
  readonly uri: vscode.Uri;
  base: string;
  readonly proposed: string;
  hunks: Hunk[];
  /** Hunk index → kept (true) or discarded (false). */
  readonly decisions: Map<number, boolean>;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  readonly resolve: (outcome: ReviewOutcome) => void;
}

/**
 * Every edit the agent proposes is reviewed before anything is written: a diff of the current text against the
 * proposal as read-only virtual documents (opened without stealing focus), Accept/Reject for the whole proposal or
 * per hunk (CodeLens). Proposals for one file queue in order; a proposal whose file changed meanwhile is re-shown
 * against the new text, never applied blindly. The real write is a WorkspaceEdit, saved, so it can be undone.
 */
export class ReviewController implements vscode.CodeLensProvider, vscode.Disposable {
  readonly documents = new PreviewDocuments();
  private readonly proposals = new Map<string, Proposal>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly reviewEvents = new vscode.EventEmitter<ReviewEvent>();
  readonly onDidChangeReview = this.reviewEvents.event;
  private counter = 0;

  /** Shows a proposal and resolves once the user has decided (queued behind earlier proposals for the same file). */
  propose(uri: vscode.Uri, proposedText: string): Promise<ReviewOutcome> {
    const key = uri.toString();
    const turn = (this.queues.get(key) ?? Promise.resolve()).then(() => this.show(uri, proposedText));
    this.queues.set(
      key,
      turn.catch(() => undefined),
    );
    return turn;
  }

  get pendingCount(): number {
    return this.proposals.size;
  }

  /** The proposals awaiting a decision: their id, file and hunks (for the chat card and tests). */
  pending(): Array<{ id: string; uri: vscode.Uri; hunks: readonly Hunk[] }> {
    return [...this.proposals.values()].map((p) => ({ id: p.id, uri: p.uri, hunks: p.hunks }));
  }

  /** Accept or reject the proposal shown in the active editor (or the only one pending). */
  async decideActive(keep: boolean): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const proposal =
      [...this.proposals.values()].find(
        (p) => active && (p.right.toString() === active.toString() || p.left.toString() === active.toString()),
      ) ?? (this.proposals.size === 1 ? [...this.proposals.values()][0] : undefined);
    if (proposal) await this.decideAll(proposal, keep);
  }

  /** Accept or reject a whole proposal by id (the chat card's buttons). */
  async decide(proposalId: string, keep: boolean): Promise<void> {
    const proposal = this.proposals.get(proposalId);
    if (proposal) await this.decideAll(proposal, keep);
  }

  /** Brings a pending proposal's diff to the front. */
  async openDiff(proposalId: string): Promise<void> {
    const proposal = this.proposals.get(proposalId);
    if (proposal) await this.showDiff(proposal, false);
  }

  async decideEverything(keep: boolean): Promise<void> {
    for (const proposal of [...this.proposals.values()]) await this.decideAll(proposal, keep);
  }

  async decideHunk(proposalId: string, index: number, keep: boolean): Promise<void> {
    const proposal = this.proposals.get(proposalId);
    if (!proposal) return;
    proposal.decisions.set(index, keep);
    this.lensesChanged.fire();
    if (proposal.decisions.size === proposal.hunks.length) await this.finish(proposal);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const proposal = [...this.proposals.values()].find((p) => p.right.toString() === document.uri.toString());
    if (!proposal) return [];
    return proposal.hunks
      .filter((h) => !proposal.decisions.has(h.index))
      .flatMap((h) => {
        const range = new vscode.Range(h.newLine, 0, h.newLine, 0);
        return [
          new vscode.CodeLens(range, {
            title: "✓ Keep change",
            command: "hermes.acceptHunk",
            arguments: [proposal.id, h.index],
          }),
          new vscode.CodeLens(range, {
            title: "✕ Discard change",
            command: "hermes.rejectHunk",
            arguments: [proposal.id, h.index],
          }),
        ];
      });
  }

  dispose(): void {
    for (const proposal of this.proposals.values()) proposal.resolve({ kind: "rejected" });
    this.proposals.clear();
    this.documents.dispose();
    this.lensesChanged.dispose();
    this.reviewEvents.dispose();
  }

  private async show(uri: vscode.Uri, proposedText: string): Promise<ReviewOutcome> {
    const existing = await currentText(uri);
    const base = existing ?? "";
    if (base === proposedText) return { kind: "accepted", text: base, partial: false };
    const id = `p${++this.counter}`;
    const name = basename(uri.fsPath);
    const left = this.documents.uriFor(id, "base", name);
    const right = this.documents.uriFor(id, "proposed", name);
    this.documents.set(left, base);
    this.documents.set(right, proposedText);
    const outcome = new Promise<ReviewOutcome>((resolve) => {
      this.proposals.set(id, {
        id,
        uri,
        base,
        proposed: proposedText,
        hunks: computeHunks(base, proposedText),
        decisions: new Map(),
        left,
        right,
        resolve,
      });
    });
    await this.updateContext();
    const proposal = this.proposals.get(id)!;
    void this.showDiff(proposal, true);
    this.lensesChanged.fire();
    this.reviewEvents.fire({ type: "proposed", id, path: uri.fsPath, base: existing ?? null, proposed: proposedText });
    return outcome;
  }

  private async showDiff(proposal: Proposal, preserveFocus: boolean): Promise<void> {
    const counts = lineCounts(proposal.hunks);
    // Not awaited by callers that decide: opening the diff is not part of the decision, and its promise may settle
    // only when the tab closes.
    await vscode.commands.executeCommand(
      "vscode.diff",
      proposal.left,
      proposal.right,
      `Hermes: ${basename(proposal.uri.fsPath)} (+${counts.added} −${counts.removed}) — review`,
      { preserveFocus, preview: false },
    );
  }

  private async decideAll(proposal: Proposal, keep: boolean): Promise<void> {
    for (const hunk of proposal.hunks)
      if (!proposal.decisions.has(hunk.index)) proposal.decisions.set(hunk.index, keep);
    await this.finish(proposal);
  }

  private async finish(proposal: Proposal): Promise<void> {
    const kept = new Set([...proposal.decisions].filter(([, keep]) => keep).map(([index]) => index));
    const now = (await currentText(proposal.uri)) ?? "";
    if (kept.size > 0 && now !== proposal.base) {
      // The file changed under the proposal: show it again against what is there now.
      proposal.base = now;
      proposal.hunks = computeHunks(now, proposal.proposed);
      proposal.decisions.clear();
      this.documents.set(proposal.left, now);
      this.lensesChanged.fire();
      this.reviewEvents.fire({
        type: "proposed",
        id: proposal.id,
        path: proposal.uri.fsPath,
        base: now,
        proposed: proposal.proposed,
      });
      void vscode.window.showWarningMessage(
        `${basename(proposal.uri.fsPath)} changed since Hermes proposed this edit; review it again.`,
      );
      return;
    }
    this.proposals.delete(proposal.id);
    await this.closeDiff(proposal);
    await this.updateContext();
    this.lensesChanged.fire();
    if (kept.size === 0) {
      this.reviewEvents.fire({ type: "decided", id: proposal.id, status: "rejected" });
      return proposal.resolve({ kind: "rejected" });
    }
    const text = applyHunks(proposal.base, proposal.hunks, kept);
    try {
      await applyText(proposal.uri, text);
      const partial = kept.size < proposal.hunks.length;
      this.reviewEvents.fire({ type: "decided", id: proposal.id, status: partial ? "partial" : "accepted" });
      proposal.resolve({ kind: "accepted", text, partial });
    } catch (error) {
      void vscode.window.showErrorMessage(`Hermes could not write ${proposal.uri.fsPath}: ${(error as Error).message}`);
      this.reviewEvents.fire({ type: "decided", id: proposal.id, status: "rejected" });
      proposal.resolve({ kind: "rejected" });
    }
    this.documents.delete(proposal.left);
    this.documents.delete(proposal.right);
  }

  private async closeDiff(proposal: Proposal): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposal.right.toString(),
      );
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  private updateContext(): Thenable<unknown> {
    return vscode.commands.executeCommand("setContext", "hermes.reviewPending", this.proposals.size > 0);
  }
}
